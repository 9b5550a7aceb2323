import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededUser } from '../db/seed-users';
import {
  ASSISTANT_ROLES,
  confirm,
  fixture,
  type Harness,
  makeHarness,
  payload,
  person,
  readyPortrayal,
  startOnboarding,
} from './testing/harness';

// AssistedExistingUsers and AssistedOtherDocuments (spec §4 register types): gambling's settings name both.

let h: Harness;

beforeAll(async () => {
  h = await makeHarness();
});

afterAll(async () => {
  await h.close();
});

const assistant = () => person(`assistant-${randomUUID()}`, 'gambling', ASSISTANT_ROLES);

async function seeded(index: number, tenant = 'gambling') {
  const { rows } = await h.db.query<{ user_id: string; document_number: string; acs_id: string }>(
    'select user_id::text as user_id, document_number, acs_id from users where tenant = $1 and acs_id = $2',
    [tenant, seededUser(tenant, index).acs_id],
  );
  const row = rows[0];
  if (!row) throw new Error(`no seeded user ${index}`);
  return row;
}

describe('AssistedExistingUsers: an assistant re-enrols an existing user', () => {
  it('replaces the user record’s data and evidences, revokes the old QR and records assisted_by', async () => {
    const helper = assistant();
    const user = await seeded(5);
    const before = await h.db.query<{ kind: string; bytes: Uint8Array }>(
      'select kind, bytes from user_evidences where tenant = $1 and user_id = $2 order by kind',
      ['gambling', user.user_id],
    );
    const oldQrs = await h.db.query<{ sid: string }>(
      "select sid::text as sid from credentials where tenant = 'gambling' and user_id = $1 and credential_type = 'qr' and state = 'active'",
      [user.user_id],
    );
    const started = await readyPortrayal(h, helper, { mode: 'assisted', user_id: user.user_id });
    // Keeping the user's own document number is not "document already in use".
    const res = await confirm(
      h,
      helper,
      started,
      payload({ document_number: user.document_number, first_name: 'Renovada', skip_email_check: true }),
    );
    expect(res.status).toBe(200);
    const outcome = (await res.json()) as { result: unknown; user_id: string; qr_sid: string };
    expect(outcome.result).toEqual({ outcome: 'accepted', reason: null });
    expect(outcome.user_id).toBe(user.user_id);
    const { rows } = await h.db.query<Record<string, unknown>>(
      `select first_name, register_mode, assisted_by, acs_id, onboarding_id::text as onboarding_id
         from users where tenant = 'gambling' and user_id = $1`,
      [user.user_id],
    );
    expect(rows[0]).toEqual({
      first_name: 'Renovada',
      register_mode: 'assisted',
      assisted_by: helper.sub,
      acs_id: user.acs_id,
      onboarding_id: started.onboardingId,
    });
    const count = await h.db.query<{ count: number }>(
      "select count(*)::int as count from users where tenant = 'gambling' and acs_id = $1",
      [user.acs_id],
    );
    expect(count.rows[0]?.count).toBe(1);
    const after = await h.db.query<{ kind: string; bytes: Uint8Array }>(
      'select kind, bytes from user_evidences where tenant = $1 and user_id = $2 order by kind',
      ['gambling', user.user_id],
    );
    expect(after.rows.map((row) => row.kind)).toEqual(['obverse', 'reverse', 'selfie']);
    const obverseBefore = before.rows.find((row) => row.kind === 'obverse')?.bytes;
    const obverseAfter = after.rows.find((row) => row.kind === 'obverse')?.bytes;
    expect(Buffer.from(obverseAfter ?? []).equals(fixture('document.jpg'))).toBe(true);
    expect(Buffer.from(obverseAfter ?? []).equals(Buffer.from(obverseBefore ?? []))).toBe(false);
    const qrs = await h.db.query<{ sid: string; state: string }>(
      "select sid::text as sid, state from credentials where tenant = 'gambling' and user_id = $1 and credential_type = 'qr'",
      [user.user_id],
    );
    for (const old of oldQrs.rows) {
      expect(qrs.rows.find((row) => row.sid === old.sid)?.state).toBe('revoked');
    }
    expect(qrs.rows.find((row) => row.sid === outcome.qr_sid)?.state).toBe('active');
  });

  it('makes the face credential again from the new selfie and revokes the old one', async () => {
    const helper = assistant();
    const user = await seeded(8);
    const faces = () =>
      h.db.query<{ sid: string; state: string; portrayal_id: string | null; object: string | null }>(
        `select sid::text as sid, state, metadata->>'portrayal_id' as portrayal_id, metadata->>'object' as object
           from credentials where tenant = 'gambling' and user_id = $1 and credential_type = 'embedding'
          order by created_at`,
        [user.user_id],
      );
    const oldFaces = (await faces()).rows.filter((row) => row.state === 'active');
    expect(oldFaces).toHaveLength(1);
    const started = await readyPortrayal(h, helper, { mode: 'assisted', user_id: user.user_id });
    const res = await confirm(
      h,
      helper,
      started,
      payload({ document_number: user.document_number, skip_email_check: true }),
    );
    expect(res.status).toBe(200);
    const after = (await faces()).rows;
    expect(after.find((row) => row.sid === oldFaces[0]?.sid)?.state).toBe('revoked');
    const active = after.filter((row) => row.state === 'active');
    expect(active).toHaveLength(1);
    expect(active[0]?.sid).not.toBe(oldFaces[0]?.sid);
    expect(active[0]?.portrayal_id).toBe(started.portrayalId);
    expect(active[0]?.object).toBe(oldFaces[0]?.object);
  });

  it('gives no face credential to a user who held none', async () => {
    const helper = assistant();
    const user = await seeded(9);
    await h.db.query(
      "delete from credentials where tenant = 'gambling' and user_id = $1 and credential_type = 'embedding'",
      [user.user_id],
    );
    const started = await readyPortrayal(h, helper, { mode: 'assisted', user_id: user.user_id });
    const res = await confirm(
      h,
      helper,
      started,
      payload({ document_number: user.document_number, skip_email_check: true }),
    );
    expect(res.status).toBe(200);
    const { rows } = await h.db.query<{ count: number }>(
      "select count(*)::int as count from credentials where tenant = 'gambling' and user_id = $1 and credential_type = 'embedding'",
      [user.user_id],
    );
    expect(rows[0]?.count).toBe(0);
  });

  it('still refuses a document number held by another user', async () => {
    const helper = assistant();
    const user = await seeded(6);
    const other = await seeded(7);
    const started = await readyPortrayal(h, helper, { mode: 'assisted', user_id: user.user_id });
    const res = await confirm(
      h,
      helper,
      started,
      payload({ document_number: other.document_number, skip_email_check: true }),
    );
    const body = (await res.json()) as { reason?: string; result?: { reason: string } };
    expect(body.reason ?? body.result?.reason).toBe('document_already_exists');
  });

  it('does not reach another tenant’s user: a demo user id is taken as an account id', async () => {
    const helper = assistant();
    const demoUser = await seeded(5, 'demo');
    const started = await startOnboarding(h, helper, {
      mode: 'assisted',
      user_id: demoUser.user_id,
      userData: { email: 'x@example.test' },
    });
    const { rows } = await h.db.query<{ replaces_user_id: string | null }>(
      "select replaces_user_id::text as replaces_user_id from onboardings where tenant = 'gambling' and onboarding_id = $1",
      [started.onboardingId],
    );
    expect(rows[0]?.replaces_user_id).toBeNull();
  });
});

describe('AssistedOtherDocuments', () => {
  it('offers the others document to assisted onboardings only', async () => {
    const assisted = await h.call('POST', '/internal/onboardings', assistant(), {
      mode: 'assisted',
      userData: { email: 'y@example.test' },
    });
    expect(((await assisted.json()) as { supported_docs: string[] }).supported_docs).toContain('others');
    const auto = await h.call('POST', '/internal/onboardings', person(`acc-${randomUUID()}`), {
      mode: 'auto',
    });
    expect(((await auto.json()) as { supported_docs: string[] }).supported_docs).not.toContain('others');
  });
});
