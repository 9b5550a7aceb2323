// What is stored about a person, for their profile, their data export and the deletion of their account (spec §3
// User, §7 Accounts and users, §8 Account cancellation). Owns the SQL; every query names the tenant.

import type { OwnStaffAction } from '../../contract/api/staff-actions';
import { normaliseNationalId } from '../../contract/domain/dni';
import type { Queryable } from '../db/db';
import { ownStaffActions } from '../staff-actions/store';

export interface ProfileUser {
  user_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  acs_id: string;
  id_number: string | null;
  nationality: string | null;
  birth_date: string;
  expiry_date: string | null;
  document_number: string;
  document_type: string;
  expedition_country: string | null;
  onboarding_date: string;
}

const USER_COLUMNS = `user_id::text as user_id, first_name, last_name, email, acs_id, id_number, nationality,
  to_char(birth_date, 'YYYY-MM-DD') as birth_date, to_char(expiry_date, 'YYYY-MM-DD') as expiry_date,
  document_number, document_type, expedition_country, onboarding_date`;

/** The user record (spec §3 User) of an account, if it is enrolled; dates as the API writes them. */
export async function userOfAccount(
  db: Queryable,
  tenant: string,
  accountId: string,
): Promise<ProfileUser | undefined> {
  const { rows } = await db.query<Omit<ProfileUser, 'onboarding_date'> & { onboarding_date: Date }>(
    `select ${USER_COLUMNS} from users where tenant = $1 and account_id = $2`,
    [tenant, accountId],
  );
  const row = rows[0];
  return row ? { ...row, onboarding_date: row.onboarding_date.toISOString() } : undefined;
}

/**
 * Whether the person has a visit in progress, which refuses the deletion of their account (spec §8): a visit
 * they are checked in to (status checked_in, whatever its times say), or an accepted visit whose window has
 * begun and not ended (expected_at ≤ now < leaving_at) — they may be on their way in without a check-in yet.
 */
export async function hasVisitInProgress(
  db: Queryable,
  tenant: string,
  accountId: string,
  now: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from visits
      where tenant = $1 and visitor_account_id = $2
        and (status = 'checked_in' or (status = 'accepted' and expected_at <= $3 and $3 < leaving_at))
      limit 1`,
    [tenant, accountId, now],
  );
  return rows.length > 0;
}

/** A DNI/NIE as people type it: upper case, without spaces or dashes (the portal's own rule). */
export const normaliseIdNumber = normaliseNationalId;

/**
 * Removes what the portal holds about the person and ends their sign-ins, keeping only the account itself
 * (username, email, password, roles), now unenrolled: signing in again starts a new enrolment. Images
 * (user_evidences, portrayal_images), the user record and its credentials, onboardings, portrayals, codes,
 * credential resets, the account's personal fields, and every session, grant and token (oidc_payloads) go;
 * the person's row in bulk import results loses its email and user id.
 * Visits stay (they are the host's and the facility's record too), and so does the access audit.
 */
export async function eraseAccountData(tx: Queryable, tenant: string, accountId: string): Promise<void> {
  const user = await tx.query<{ user_id: string }>(
    'select user_id::text as user_id from users where tenant = $1 and account_id = $2',
    [tenant, accountId],
  );
  const userId = user.rows[0]?.user_id;
  // Portrayals (and their images, by cascade) of the person: theirs, their onboardings', their user record's.
  await tx.query(
    `delete from portrayals where tenant = $1 and (owner_id = $2 or ($3::text is not null and user_id = $3)
       or onboarding_id in (select onboarding_id from onboardings where tenant = $1 and account_id = $2))`,
    [tenant, accountId, userId ?? null],
  );
  await tx.query('delete from user_codes where tenant = $1 and account_id = $2', [tenant, accountId]);
  await tx.query('delete from challenges where tenant = $1 and account_id = $2', [tenant, accountId]);
  await tx.query('delete from onboardings where tenant = $1 and account_id = $2', [tenant, accountId]);
  // The user record; its evidences (selfie, obverse, reverse) and credentials go with it (on delete cascade).
  await tx.query('delete from users where tenant = $1 and account_id = $2', [tenant, accountId]);
  await tx.query('delete from credential_resets where tenant = $1 and account_id = $2', [tenant, accountId]);
  // The person's line in a staff member's "add users from photos" results keeps its outcome, not who it was.
  await tx.query(
    `update bulk_import_rows set email = '', user_id = null
      where tenant = $1 and (($2::text is not null and user_id = $2)
        or lower(email) = (select lower(email) from accounts where tenant = $1 and id = $3::uuid))`,
    [tenant, userId ?? null, accountId],
  );
  await tx.query(
    `update accounts set first_name = null, last_name = null, enrolled = false, acs_id = null, location = null,
       onboarding_status = 'none'
     where tenant = $1 and id = $2`,
    [tenant, accountId],
  );
  // Every session, grant, refresh and access token of the account: tokens already issued die with their grant.
  await tx.query("delete from oidc_payloads where tenant = $1 and payload->>'accountId' = $2", [
    tenant,
    accountId,
  ]);
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** Rows as JSON-friendly objects: dates in ISO 8601, bytes left out. */
function plain(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([, value]) => !(value instanceof Uint8Array))
        .map(([key, value]) => [key, iso(value)]),
    ),
  );
}

export interface ExportImage {
  kind: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface AccountExport {
  account: Record<string, unknown>;
  user: Record<string, unknown> | null;
  onboardings: Record<string, unknown>[];
  credentials: Record<string, unknown>[];
  visits: Record<string, unknown>[];
  audit: { source: string; entries: unknown[] };
  /** What staff did to the person's data: when, what, and the staff role (the staff member's name stays with the auditor). */
  staffActions: OwnStaffAction[];
  images: ExportImage[];
}

/** Everything stored about the person ("download my data"). */
export async function collectAccountData(
  db: Queryable,
  tenant: string,
  accountId: string,
): Promise<AccountExport | undefined> {
  const account = await db.query(
    `select id::text as id, username, first_name, last_name, email, roles, enrolled, acs_id, location, locale,
            onboarding_status, created_at
       from accounts where tenant = $1 and id = $2`,
    [tenant, accountId],
  );
  const accountRow = account.rows[0];
  if (!accountRow) return undefined;
  const user = await db.query(
    `select user_id::text as user_id, account_id, username, first_name, last_name, email, acs_id, id_number, nie,
            nationality, to_char(birth_date, 'YYYY-MM-DD') as birth_date,
            to_char(expiry_date, 'YYYY-MM-DD') as expiry_date, document_number, document_type, expedition_country,
            extra_fields, portrayal_id::text as portrayal_id, onboarding_id::text as onboarding_id, host,
            onboarding_date, active, onboarding_state, register_mode, assisted_by, life_proofing_result,
            identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity, created_at
       from users where tenant = $1 and account_id = $2`,
    [tenant, accountId],
  );
  const userRow = user.rows[0] as { user_id: string } | undefined;
  const onboardings = await db.query(
    `select onboarding_id::text as onboarding_id, mode, assisted_by, register_mode, location, user_data, visit_date,
            host, identity_proofing, life_proofing, biometric_qr, supported_docs, status, legal_terms_accepted_at,
            last_outcome, last_reason, user_id::text as user_id, qr_sid::text as qr_sid, created_at, updated_at
       from onboardings where tenant = $1 and account_id = $2 order by created_at`,
    [tenant, accountId],
  );
  const credentials = userRow
    ? await db.query(
        `select sid::text as sid, credential_type, state, starts_at, ends_at, metadata, created_at
           from credentials where tenant = $1 and user_id = $2 order by created_at, sid`,
        [tenant, userRow.user_id],
      )
    : { rows: [] };
  const visits = await db.query(
    `select visit_id::text as visit_id, title, expected_at, leaving_at, host_email, facility_id, visitor_name,
            visitor_email, guests, status, extra_fields, created_at
       from visits where tenant = $1 and visitor_account_id = $2 order by expected_at`,
    [tenant, accountId],
  );
  const images = userRow
    ? await db.query<{ kind: string; content_type: string; bytes: Uint8Array }>(
        `select kind, content_type, bytes from user_evidences where tenant = $1 and user_id = $2
          order by array_position(array['selfie', 'obverse', 'reverse'], kind)`,
        [tenant, userRow.user_id],
      )
    : { rows: [] };
  const audit = userRow
    ? await db.query(
        `select a.access_id::text as access_id, a.created_at, a.facility_id, f.alias as facility, a.sid,
                a.credential_type, a.doc_type, case when a.granted then 'granted' else 'denied' end as access_type,
                a.reason, a.watchlists_check_mode, a.watchlists_checked
           from audit_accesses a join facilities f on f.tenant = a.tenant and f.facility_id = a.facility_id
          where a.tenant = $1 and a.user_id = $2 order by a.created_at, a.access_id`,
        [tenant, userRow.user_id],
      )
    : { rows: [] };
  return {
    account: plain([accountRow])[0] ?? {},
    user: userRow ? (plain([userRow as Record<string, unknown>])[0] ?? null) : null,
    onboardings: plain(onboardings.rows as Record<string, unknown>[]),
    credentials: plain(credentials.rows as Record<string, unknown>[]),
    visits: plain(visits.rows as Record<string, unknown>[]),
    // The person's own accesses at the doors (spec §3 Audit access), as the audit stored them.
    audit: { source: 'audit_accesses', entries: plain(audit.rows as Record<string, unknown>[]) },
    staffActions: await ownStaffActions(db, tenant, accountId),
    images: images.rows.map((row) => ({
      kind: row.kind,
      contentType: row.content_type,
      bytes: new Uint8Array(row.bytes),
    })),
  };
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** The export as zip entries: one JSON per kind of data, and the images under images/. */
export function exportEntries(data: AccountExport): { name: string; data: Uint8Array | string }[] {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return [
    { name: 'account.json', data: json(data.account) },
    { name: 'user.json', data: json(data.user) },
    { name: 'onboardings.json', data: json(data.onboardings) },
    { name: 'credentials.json', data: json(data.credentials) },
    { name: 'visits.json', data: json(data.visits) },
    { name: 'audit.json', data: json(data.audit) },
    { name: 'staff-actions.json', data: json(data.staffActions) },
    ...data.images.map((image) => ({
      name: `images/${image.kind}.${EXTENSIONS[image.contentType] ?? 'bin'}`,
      data: image.bytes,
    })),
  ];
}

/** Whether the tenant has an admin account other than this one. */
export async function anotherAdmin(db: Queryable, tenant: string, id: string): Promise<boolean> {
  const { rows } = await db.query(
    "select 1 from accounts where tenant = $1 and id <> $2::uuid and 'admin' = any(roles) limit 1",
    [tenant, id],
  );
  return rows.length > 0;
}

/** A new account holding the user role; undefined when one of its logins was taken meanwhile. */
export async function insertAccount(
  db: Queryable,
  tenant: string,
  account: { username: string; firstName: string | null; lastName: string | null; email: string },
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `insert into accounts (tenant, username, first_name, last_name, email, roles)
           values ($1, $2, $3, $4, $5, array['user'])
           on conflict do nothing returning id::text as id`,
    [tenant, account.username, account.firstName, account.lastName, account.email],
  );
  return rows[0]?.id;
}

/** Sets an account's language; false when the tenant has no such account. */
export async function setAccountLocale(db: Queryable, tenant: string, id: string, locale: string) {
  const { rows } = await db.query(
    'update accounts set locale = $3 where tenant = $1 and id::text = $2 returning 1',
    [tenant, id, locale],
  );
  return rows.length > 0;
}
