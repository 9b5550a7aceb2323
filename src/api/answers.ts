import type { StandardSchemaV1 } from 'ky';
import type { CheckResponse } from './answer-check.worker';
import type { CheckResult, SchemaName, Schemas } from './schemas';

// The schemas the calls of src/api give the client (`schema:`), by the contract's names. Each one checks an answer
// in a worker that holds the contract's arktype schemas (src/api/answer-check.worker.ts): arktype's runtime and
// the schemas it builds are ~40 KB and ~200 ms of a phone's main thread, the longest task of every signed-in
// screen while the answer waited on it. Where there is no worker (jsdom in the unit tests, a browser that refuses
// one) or the worker fails, the page checks the answer itself with the same schemas.

type Answer<N extends SchemaName> = StandardSchemaV1<unknown, Schemas[N]['infer']>;

let worker: Worker | undefined;
let workerFailed = false;
let nextId = 0;
const pending = new Map<
  number,
  { name: SchemaName; value: unknown; settle: (result: CheckResult) => void }
>();

const checkHere = (name: SchemaName, value: unknown): Promise<CheckResult> =>
  import('./schemas').then(({ checkAnswer }) => checkAnswer(name, value));

function startWorker(): Worker | undefined {
  if (worker || workerFailed || typeof Worker === 'undefined') return worker;
  try {
    worker = new Worker(new URL('./answer-check.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    workerFailed = true;
    return undefined;
  }
  worker.onmessage = (event: MessageEvent<CheckResponse>) => {
    const { id, ...result } = event.data;
    pending.get(id)?.settle(result);
    pending.delete(id);
  };
  // A worker that does not load or crashes never answers: what waits on it is checked here, and so is every
  // answer after it.
  worker.onerror = () => {
    worker?.terminate();
    worker = undefined;
    workerFailed = true;
    const waiting = [...pending.values()];
    pending.clear();
    for (const { name, value, settle } of waiting) void checkHere(name, value).then(settle);
  };
  return worker;
}

/** Checks `value` against the contract's schema `name`, in the worker when there is one. */
export function checkAnswer(name: SchemaName, value: unknown): Promise<CheckResult> {
  const checker = startWorker();
  if (!checker) return checkHere(name, value);
  const id = nextId++;
  return new Promise((settle) => {
    pending.set(id, { name, value, settle });
    checker.postMessage({ id, name, value });
  });
}

/** The answer `value` as the schema `name` reads it, or undefined when it does not match. */
export async function readAnswer<N extends SchemaName>(
  name: N,
  value: unknown,
): Promise<Schemas[N]['infer'] | undefined> {
  const result = await checkAnswer(name, value);
  return result.ok ? (result.value as Schemas[N]['infer']) : undefined;
}

function answer<N extends SchemaName>(name: N): Answer<N> {
  return {
    '~standard': {
      version: 1,
      vendor: 'portal-answers',
      validate: async (value) => {
        const result = await checkAnswer(name, value);
        return result.ok ? { value: result.value as Schemas[N]['infer'] } : { issues: result.issues };
      },
    },
  };
}

// The worker starts with the API client (this module downloads beside it), so that arktype is up by the time
// the first answer arrives.
startWorker();

export const accountProfile = answer('accountProfile');
export const credentialResetResult = answer('credentialResetResult');
export const iamAccountList = answer('iamAccountList');
export const iamAccountPage = answer('iamAccountPage');
export const auditPage = answer('auditPage');
export const interdictionResponse = answer('interdictionResponse');
export const watchlistStored = answer('watchlistStored');
export const watchlistUploadOutcome = answer('watchlistUploadOutcome');
export const bulkJob = answer('bulkJob');
export const bulkJobAccepted = answer('bulkJobAccepted');
export const activationAnswer = answer('activationAnswer');
export const credential = answer('credential');
export const userCredentials = answer('userCredentials');
export const userLocations = answer('userLocations');
export const facilityList = answer('facilityList');
export const challenge = answer('challenge');
export const confirmationResult = answer('confirmationResult');
export const createdOnboarding = answer('createdOnboarding');
export const createdPortrayal = answer('createdPortrayal');
export const legalTermsAccepted = answer('legalTermsAccepted');
export const onboardingStatus = answer('onboardingStatus');
export const portrayalResult = answer('portrayalResult');
export const redeemedUserCode = answer('redeemedUserCode');
export const uploadedImage = answer('uploadedImage');
export const uploadedLifeproof = answer('uploadedLifeproof');
export const userCode = answer('userCode');
export const singleRegistrationResult = answer('singleRegistrationResult');
export const staffActionsPage = answer('staffActionsPage');
export const activationResult = answer('activationResult');
export const bulkResult = answer('bulkResult');
export const userDetail = answer('userDetail');
export const userPage = answer('userPage');
export const visit = answer('visit');
export const visitArrival = answer('visitArrival');
export const visitPage = answer('visitPage');
export const visitVisitor = answer('visitVisitor');
