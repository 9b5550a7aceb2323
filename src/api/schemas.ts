// Every arktype schema the API client checks an answer with, by name (contract/api). Only the validation worker
// (src/api/answer-check.worker.ts) imports this module, and the page itself only where it has no workers
// (src/api/answers.ts): arktype's runtime and the schemas it builds cost ~200 ms of a phone's main thread at
// start, the longest task of every signed-in screen before they moved off it.
import {
  accountProfile,
  credentialResetResult,
  iamAccount,
  iamAccountPage,
} from '../../contract/api/accounts.ts';
import {
  auditPage,
  interdictionResponse,
  watchlistStored,
  watchlistUploadOutcome,
} from '../../contract/api/audit.ts';
import { bulkJob, bulkJobAccepted } from '../../contract/api/bulk.ts';
import {
  activationAnswer,
  credential,
  credentialAlreadyExists,
  userCredentials,
  userLocations,
} from '../../contract/api/credentials.ts';
import { facilityList } from '../../contract/api/facilities.ts';
import {
  challenge,
  confirmationResult,
  createdOnboarding,
  createdPortrayal,
  legalTermsAccepted,
  onboardingStatus,
  portrayalResult,
  portrayalResultProblem,
  redeemedUserCode,
  uploadedImage,
  uploadedLifeproof,
  userCode,
} from '../../contract/api/onboarding.ts';
import { singleRegistrationResult } from '../../contract/api/singles.ts';
import { staffActionsPage } from '../../contract/api/staff-actions.ts';
import { activationResult, bulkResult, userDetail, userPage } from '../../contract/api/users.ts';
import { visit, visitArrival, visitPage, visitVisitor } from '../../contract/api/visits.ts';

export const schemas = {
  accountProfile,
  credentialResetResult,
  iamAccount,
  iamAccountList: iamAccount.array(),
  iamAccountPage,
  auditPage,
  interdictionResponse,
  watchlistStored,
  watchlistUploadOutcome,
  bulkJob,
  bulkJobAccepted,
  activationAnswer,
  credential,
  credentialAlreadyExists,
  userCredentials,
  userLocations,
  facilityList,
  challenge,
  confirmationResult,
  createdOnboarding,
  createdPortrayal,
  legalTermsAccepted,
  onboardingStatus,
  portrayalResult,
  portrayalResultProblem,
  redeemedUserCode,
  uploadedImage,
  uploadedLifeproof,
  userCode,
  singleRegistrationResult,
  staffActionsPage,
  activationResult,
  bulkResult,
  userDetail,
  userPage,
  visit,
  visitArrival,
  visitPage,
  visitVisitor,
};

export type Schemas = typeof schemas;
export type SchemaName = keyof Schemas;

/** What checking `value` against the schema `name` gives: its value (defaults filled in) or the issues. */
export type CheckResult = { ok: true; value: unknown } | { ok: false; issues: { message: string }[] };

export function checkAnswer(name: SchemaName, value: unknown): CheckResult {
  const result = schemas[name]['~standard'].validate(value);
  if (result instanceof Promise) throw new Error(`${name}: an arktype schema checks synchronously`);
  return result.issues
    ? { ok: false, issues: result.issues.map((issue) => ({ message: issue.message })) }
    : { ok: true, value: result.value };
}
