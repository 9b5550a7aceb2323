// A person of their own for each test that changes one: an enrolled account with evidences and a QR, made straight
// in the database, and the roles the person holds when signed in.
import { expect } from 'vitest';
import type { Db } from '../db/db';
import { type Person, person } from '../onboarding/testing/harness';

export interface Enrolled {
  accountId: string;
  userId: string;
  sid: string;
  email: string;
  tenant: string;
  idNumber: string;
}

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
let serial = 0;

/** A new enrolled person: account, user record with a DNI, a QR credential and a selfie. */
export async function enrolledPerson(db: Db, tenant = 'gambling'): Promise<Enrolled> {
  serial += 1;
  const n = 30_000_000 + serial;
  const idNumber = `${n}${LETTERS[n % 23]}`;
  const email = `person-${serial}@${tenant}.test`;
  const account = await db.query<{ id: string }>(
    `insert into accounts (tenant, username, first_name, last_name, email, password_hash, roles, enrolled, acs_id)
     values ($1, $2, 'Ane', 'Prueba', $3, 'x', array['user'], true, $4) returning id::text as id`,
    [tenant, `person-${serial}`, email, `ACS-T-${serial}`],
  );
  const accountId = account.rows[0]?.id ?? '';
  const user = await db.query<{ user_id: string }>(
    `insert into users (tenant, account_id, first_name, last_name, email, acs_id, id_number, birth_date,
       document_number, document_type, onboarding_state, register_mode, life_proofing_result,
       identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity)
     values ($1, $2, 'Ane', 'Prueba', $3, $4, $5, '1990-01-01', $6, 'id_card', 'completed', 'auto',
       'passing', 'passing', 'passing', 'passing', 'passing') returning user_id::text as user_id`,
    [tenant, accountId, email, `ACS-T-${serial}`, idNumber, `DOC-T-${serial}`],
  );
  const userId = user.rows[0]?.user_id ?? '';
  await db.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes) values ($1, $2, 'selfie', 'image/jpeg', $3)`,
    [tenant, userId, Buffer.from('selfie-bytes')],
  );
  const credential = await db.query<{ sid: string }>(
    `insert into credentials (tenant, user_id, credential_type, ends_at) values ($1, $2, 'qr', now() + interval '15 days')
     returning sid::text as sid`,
    [tenant, userId],
  );
  return { accountId, userId, sid: credential.rows[0]?.sid ?? '', email, tenant, idNumber };
}

/** What an enrolled person may do on their own account (profile, data, deletion, credential reset). */
export const OWN_ROLES = [
  'get_users_me',
  'get_all_data_me',
  'delete_accounts_me',
  'show_reset_credentials_button_me',
  'can_view_accreditations',
];

/** The person signed in as their own account. */
export const ownerOf = (who: Enrolled, roles = OWN_ROLES): Person => person(who.accountId, who.tenant, roles);

/** Expects a problem answer of this status and code; its body. */
export async function problem(res: Response, status: number, code: string) {
  const body = (await res.json()) as { status: number; code?: string; detail: string };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  return body;
}
