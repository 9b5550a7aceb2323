// SQL of the onboardings table. Every query names the tenant; a person reaches only the onboardings they
// created, are enrolled by, or assist.
import type { OnboardingMode } from '../../../contract/api/onboarding';
import type { Queryable } from '../../db/db';

/** The caller of a request: their tenant and account id (the token's sub). */
export interface Owner {
  tenant: string;
  sub: string;
}

export interface OnboardingRow {
  onboarding_id: string;
  mode: OnboardingMode;
  account_id: string | null;
  assisted_by: string | null;
  created_by: string;
  register_mode: string;
  location: string | null;
  user_data: Record<string, unknown> | null;
  visit_date: string | null;
  host: string | null;
  identity_proofing: boolean;
  life_proofing: boolean;
  biometric_qr: boolean;
  supported_docs: string[];
  status: string;
  legal_terms_accepted_at: Date | null;
  last_outcome: string | null;
  last_reason: string | null;
  user_id: string | null;
  qr_sid: string | null;
  /** AssistedExistingUsers: the user record this onboarding re-enrols (migration 016). */
  replaces_user_id?: string | null;
  updated_at: Date;
}

export async function findOwnOnboarding(
  q: Queryable,
  owner: Owner,
  id: string,
): Promise<OnboardingRow | undefined> {
  const { rows } = await q.query<OnboardingRow>(
    `select * from onboardings where tenant = $1 and onboarding_id = $2
        and (created_by = $3 or account_id = $3 or assisted_by = $3)`,
    [owner.tenant, id, owner.sub],
  );
  return rows[0];
}

/** The caller's most recent onboarding that is not completed. */
export async function latestOpenOnboarding(q: Queryable, owner: Owner): Promise<string | undefined> {
  const { rows } = await q.query<{ onboarding_id: string }>(
    `select onboarding_id from onboardings
      where tenant = $1 and (created_by = $2 or account_id = $2 or assisted_by = $2) and status <> 'completed'
      order by created_at desc limit 1`,
    [owner.tenant, owner.sub],
  );
  return rows[0]?.onboarding_id;
}

export interface NewOnboarding {
  tenant: string;
  mode: OnboardingMode;
  accountId: string | null;
  assistedBy: string | null;
  createdBy: string;
  registerMode: string;
  location: string | null;
  userData: Record<string, unknown> | null;
  visitDate: string | null;
  host: string | null;
  identityProofing: boolean;
  lifeProofing: boolean;
  biometricQr: boolean;
  supportedDocs: string[];
  stamp: Date;
}

export async function insertOnboarding(q: Queryable, n: NewOnboarding): Promise<string | undefined> {
  const { rows } = await q.query<{ onboarding_id: string }>(
    `insert into onboardings (tenant, mode, account_id, assisted_by, created_by, register_mode, location, user_data,
       visit_date, host, identity_proofing, life_proofing, biometric_qr, supported_docs, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
     returning onboarding_id`,
    [
      n.tenant,
      n.mode,
      n.accountId,
      n.assistedBy,
      n.createdBy,
      n.registerMode,
      n.location,
      n.userData === null ? null : JSON.stringify(n.userData),
      n.visitDate,
      n.host,
      n.identityProofing,
      n.lifeProofing,
      n.biometricQr,
      JSON.stringify(n.supportedDocs),
      n.stamp,
    ],
  );
  return rows[0]?.onboarding_id;
}

export async function acceptLegalTerms(q: Queryable, tenant: string, id: string, stamp: Date): Promise<void> {
  await q.query(
    `update onboardings set legal_terms_accepted_at = coalesce(legal_terms_accepted_at, $3),
            status = case when status = 'started' then 'legal_terms_accepted' else status end, updated_at = $3
      where tenant = $1 and onboarding_id = $2`,
    [tenant, id, stamp],
  );
}

/** The first portrayal moves the onboarding on. */
export async function markInProgress(q: Queryable, tenant: string, id: string, stamp: Date): Promise<void> {
  await q.query(
    `update onboardings set status = 'in_progress', updated_at = $3 where tenant = $1 and onboarding_id = $2`,
    [tenant, id, stamp],
  );
}

/** The last answer of the confirmation, for the desktop that follows the phone (GET …/status). */
export async function recordOutcome(
  q: Queryable,
  tenant: string,
  id: string,
  outcome: string,
  reason: string | null,
  stamp: Date,
): Promise<void> {
  await q.query(
    'update onboardings set last_outcome = $3, last_reason = $4, updated_at = $5 where tenant = $1 and onboarding_id = $2',
    [tenant, id, outcome, reason, stamp],
  );
}

/** Its portrayals and their images go with it (foreign keys cascade). */
export async function deleteOnboarding(q: Queryable, tenant: string, id: string): Promise<void> {
  await q.query('delete from onboardings where tenant = $1 and onboarding_id = $2', [tenant, id]);
}
