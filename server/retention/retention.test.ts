// The retention purge with the clock where the test puts it: exactly the rows older than the tenant's day counts
// go (a row exactly N days old stays, a moment older goes), per tenant, and nothing a decision needs; each run is
// recorded; one purger at a time per database. Runs on PGlite and on PostgreSQL (vitest.config.ts POSTGRES_TESTS).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Db } from '../db/db';
import { silentLogger } from '../logger';
import { basicEngine } from '../onboarding/engine';
import { fakeAuth, headersOf, PUBLIC_DIR, person } from '../onboarding/testing/harness';
import { createSiteFixture, createTestDb, testDeps } from '../testing/fixtures';
import { rewriteIfDue, runRetention } from './job';
import { purgeStaffActions, withPurgeLock } from './store';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number, ms = 0) => new Date(NOW.getTime() - days * DAY - ms);

// demo keeps little; gambling says nothing, so it has the defaults (90, 30, 365 days).
const publicDir = mkdtempSync(join(tmpdir(), 'retention-'));
for (const [tenant, settings] of Object.entries({
  demo: { retention: { evidenceDays: 30, unfinishedOnboardingDays: 7, auditDays: 20 } },
  gambling: {},
})) {
  mkdirSync(join(publicDir, 'tenants', tenant), { recursive: true });
  writeFileSync(join(publicDir, 'tenants', tenant, 'settings.json'), JSON.stringify(settings));
}
const site = createSiteFixture();
afterAll(() => {
  rmSync(publicDir, { recursive: true, force: true });
  site.remove();
});

let db: Db;
beforeEach(async () => {
  db = await createTestDb([]);
});
afterEach(async () => {
  await db.close();
});

const options = (on: Db) => ({
  db: on,
  tenants: ['demo', 'gambling'],
  publicDir,
  logger: silentLogger,
  clock: { now: () => NOW },
});

async function addUser(tenant: string, name: string): Promise<string> {
  const { rows } = await db.query<{ user_id: string }>(
    `insert into users (tenant, first_name, last_name, acs_id, birth_date, document_number, document_type,
                        onboarding_state, register_mode, life_proofing_result, identity_proofing_result,
                        ocr_integrity, document_validity, selfie_authenticity)
     values ($1, $2, 'Retention', $2, '1990-01-01', $2, 'id_card', 'completed', 'auto', 'passing', 'passing',
             'passing', 'passing', 'passing')
     returning user_id::text`,
    [tenant, name],
  );
  return rows[0]?.user_id ?? '';
}

const addEvidence = (tenant: string, userId: string, kind: string, at: Date) =>
  db.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
     values ($1, $2::uuid, $3, 'image/jpeg', $4, $5)`,
    [tenant, userId, kind, Buffer.from(`${kind} of ${userId}`), at],
  );

async function addOnboarding(tenant: string, status: string, updatedAt: Date): Promise<string> {
  const { rows } = await db.query<{ onboarding_id: string }>(
    `insert into onboardings (tenant, mode, created_by, register_mode, identity_proofing, life_proofing,
                              biometric_qr, supported_docs, status, created_at, updated_at)
     values ($1, 'auto', 'someone', 'Auto', true, false, false, '[]', $2, $3, $3)
     returning onboarding_id::text`,
    [tenant, status, updatedAt],
  );
  return rows[0]?.onboarding_id ?? '';
}

async function addPortrayal(tenant: string, onboardingId: string | null): Promise<string> {
  const { rows } = await db.query<{ portrayal_id: string }>(
    `insert into portrayals (tenant, onboarding_id, owner_id, portrayal_type, result, liveness_result)
     values ($1, $2::uuid, 'someone', 'selfie', '{"score_biometry": 0.93}', 'passing')
     returning portrayal_id::text`,
    [tenant, onboardingId],
  );
  return rows[0]?.portrayal_id ?? '';
}

const addImage = (tenant: string, portrayalId: string, kind: string, seq: number, at: Date) =>
  db.query(
    `insert into portrayal_images (tenant, portrayal_id, kind, seq, content_type, bytes, created_at)
     values ($1, $2::uuid, $3, $4, 'image/jpeg', '\\x00', $5)`,
    [tenant, portrayalId, kind, seq, at],
  );

async function addAudit(tenant: string, reason: string, at: Date) {
  const { rows } = await db.query<{ facility_id: string }>(
    `select facility_id from facilities where tenant = $1 limit 1`,
    [tenant],
  );
  let facility = rows[0]?.facility_id;
  if (!facility) {
    const made = await db.query<{ facility_id: string }>(
      `insert into facilities (tenant, alias, timezone) values ($1, 'Door', 'UTC') returning facility_id`,
      [tenant],
    );
    facility = made.rows[0]?.facility_id;
  }
  await db.query(
    `insert into audit_accesses (tenant, facility_id, doc_type, granted, reason, created_at)
     values ($1, $2, 'access', true, $3, $4)`,
    [tenant, facility, reason, at],
  );
}

async function addStaffAction(tenant: string, subject: string, at: Date) {
  await db.query(
    `insert into staff_actions (tenant, at, staff_id, staff_roles, action, subject_id)
     values ($1, $2, 'staff-usermanager', '{usermanager}', 'evidence.read', $3)`,
    [tenant, at, subject],
  );
}

const list = async (sql: string) => (await db.query<{ v: string }>(sql)).rows.map((r) => r.v).sort();

describe('retention purge', () => {
  it('deletes exactly what is due per tenant, keeps the decision, and records the run', async () => {
    const ana = await addUser('demo', 'ana');
    await addEvidence('demo', ana, 'selfie', ago(30, 1)); // a moment past 30 days: due
    await addEvidence('demo', ana, 'obverse', ago(30)); // exactly 30 days: stays
    await addEvidence('demo', ana, 'reverse', ago(29));
    await db.query(
      `insert into credentials (tenant, user_id, credential_type, metadata)
       values ('demo', $1::uuid, 'embedding', '{"descriptor": [0.1, 0.2]}')`,
      [ana],
    );
    const kept = await addPortrayal('demo', null);
    await addImage('demo', kept, 'selfie', 0, ago(31));
    await addImage('demo', kept, 'lifeproof', 0, ago(40));
    await addImage('demo', kept, 'lifeproof', 1, ago(40));
    await addImage('demo', kept, 'obverse', 0, ago(10));

    const left = await addOnboarding('demo', 'in_progress', ago(7, 1));
    await addImage('demo', await addPortrayal('demo', left), 'selfie', 0, ago(1));
    await addOnboarding('demo', 'started', ago(7));
    await addOnboarding('demo', 'completed', ago(100));

    await addAudit('demo', 'due', ago(20, 1));
    await addAudit('demo', 'boundary', ago(20));
    await addAudit('demo', 'recent', ago(1));
    // The record of staff actions is kept as long as the access audit (auditDays).
    await addStaffAction('demo', 'due', ago(20, 1));
    await addStaffAction('demo', 'boundary', ago(20));

    // gambling's defaults keep all of these (90, 30 and 365 days).
    const bea = await addUser('gambling', 'bea');
    await addEvidence('gambling', bea, 'selfie', ago(89));
    await addOnboarding('gambling', 'started', ago(29));
    await addAudit('gambling', 'gambling', ago(364));
    await addStaffAction('gambling', 'gambling', ago(364));

    const records = await runRetention(options(db));
    expect(records).not.toBe('busy');
    const counts = Object.fromEntries(
      (records === 'busy' ? [] : records).map((r) => [`${r.tenant} ${r.kind}`, r.deleted]),
    );
    expect(counts).toEqual({
      'demo evidence': 4,
      'demo unfinished_onboarding': 1,
      'demo audit': 1,
      'demo staff_actions': 1,
      'gambling evidence': 0,
      'gambling unfinished_onboarding': 0,
      'gambling audit': 0,
      'gambling staff_actions': 0,
    });

    expect(await list(`select tenant || ' ' || kind as v from user_evidences`)).toEqual([
      'demo obverse',
      'demo reverse',
      'gambling selfie',
    ]);
    expect(
      await list(`select kind || ' ' || seq as v from portrayal_images where portrayal_id = '${kept}'`),
    ).toEqual(['obverse 0']);
    // The onboarding left more than 7 days ago went with its portrayal and its (recent) picture.
    expect(await list(`select tenant || ' ' || status as v from onboardings`)).toEqual([
      'demo completed',
      'demo started',
      'gambling started',
    ]);
    expect(await list(`select portrayal_id::text as v from portrayals`)).toEqual([kept]);
    expect(await list(`select reason as v from audit_accesses`)).toEqual(['boundary', 'gambling', 'recent']);
    expect(await list(`select subject_id as v from staff_actions`)).toEqual(['boundary', 'gambling']);

    // The decision stays: the user's results, the portrayal's scores, the face credential's descriptor.
    const user = await db.query<{ selfie_authenticity: string }>(
      `select selfie_authenticity from users where user_id = $1::uuid`,
      [ana],
    );
    expect(user.rows[0]?.selfie_authenticity).toBe('passing');
    expect(await list(`select result::text as v from portrayals`)).toEqual(['{"score_biometry": 0.93}']);
    expect(await list(`select metadata::text as v from credentials`)).toEqual(['{"descriptor": [0.1, 0.2]}']);

    expect(
      await list(
        `select kind || ' ' || deleted_by || ' ' || to_char(deleted_at at time zone 'UTC', 'YYYY-MM-DD') as v
           from evidence_deletions`,
      ),
    ).toEqual(['selfie retention 2026-06-15']);
    const runs = await db.query<{ n: number; started: Date }>(
      'select count(*)::int as n, min(started_at) as started from retention_runs',
    );
    expect(runs.rows[0]?.n).toBe(8);
    expect(runs.rows[0]?.started.toISOString()).toBe(NOW.toISOString());

    // Nothing more is due: a second run deletes nothing.
    const again = await runRetention(options(db));
    expect(again === 'busy' ? 'busy' : again.reduce((n, r) => n + r.deleted, 0)).toBe(0);
  });

  it('deletes in batches until nothing is due', async () => {
    for (let i = 0; i < 7; i++) await addAudit('demo', `old ${i}`, ago(21));
    await addAudit('demo', 'recent', ago(1));
    for (let i = 0; i < 7; i++) await addStaffAction('demo', `old ${i}`, ago(21 + i));
    await addStaffAction('demo', 'recent', ago(1));
    const records = await runRetention({ ...options(db), batchSize: 3 });
    const deleted = (kind: string) =>
      records === 'busy' ? [] : records.filter((r) => r.kind === kind).map((r) => r.deleted);
    expect(deleted('audit')).toEqual([7, 0]);
    expect(deleted('staff_actions')).toEqual([7, 0]);
    expect(await list(`select reason as v from audit_accesses`)).toEqual(['recent']);
    expect(await list(`select subject_id as v from staff_actions`)).toEqual(['recent']);
  });

  it('trims the record of staff actions a batch at a time, the oldest first, of its tenant only', async () => {
    for (let i = 0; i < 5; i++) await addStaffAction('demo', `${21 + i} days`, ago(21 + i));
    await addStaffAction('gambling', 'gambling', ago(400));
    expect(await purgeStaffActions(db, 'demo', ago(20), 2)).toBe(2);
    expect(await list(`select subject_id as v from staff_actions`)).toEqual([
      '21 days',
      '22 days',
      '23 days',
      'gambling',
    ]);
    expect(await purgeStaffActions(db, 'demo', ago(20), 5)).toBe(3);
    expect(await list(`select subject_id as v from staff_actions`)).toEqual(['gambling']);
  });

  it('lets the requests in progress end before its next batch', async () => {
    for (let i = 0; i < 7; i++) await addAudit('demo', `old ${i}`, ago(21));
    const events: string[] = [];
    // Each batch leaves a request in progress that the next two looks still see.
    let inProgress = 0;
    const watched: Db = {
      kind: db.kind,
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
      exec: (sql) => db.exec(sql),
      query: (sql, params) => {
        if (sql.includes('delete from audit_accesses')) {
          events.push(`batch ${params?.[0]}`);
          inProgress = 2;
        }
        return db.query(sql, params);
      },
    };
    const serving = () => {
      const busy = inProgress > 0;
      inProgress = Math.max(0, inProgress - 1);
      events.push(busy ? 'serving' : 'idle');
      return busy;
    };
    await runRetention({ ...options(watched), batchSize: 3, serving, servingWaitMs: 60_000 });
    // demo's 7 rows in batches of at most 3 (how many depends on how long each took), every one after the first
    // once the request in progress has ended; then gambling's one batch finds nothing due (after the batch that
    // found fewer rows than it asked for, which ends the step without a rest).
    expect(events.join(', ')).toMatch(
      /^batch demo(, serving, serving, idle, batch demo){2,7}, batch gambling$/,
    );
    expect(await list(`select reason as v from audit_accesses`)).toEqual([]);
  });

  it("deletes a user's evidence and the portrayals' images in batches, noting each user image for staff", async () => {
    const users = [await addUser('demo', 'ana'), await addUser('demo', 'bea')];
    for (const user of users) {
      await addEvidence('demo', user, 'selfie', ago(31));
      await addEvidence('demo', user, 'obverse', ago(31));
    }
    await addEvidence('demo', users[0] ?? '', 'reverse', ago(1));
    const portrayal = await addPortrayal('demo', null);
    for (let seq = 0; seq < 5; seq++) await addImage('demo', portrayal, 'lifeproof', seq, ago(31));
    await addImage('demo', portrayal, 'lifeproof', 5, ago(1));
    const records = await runRetention({ ...options(db), batchSize: 2 });
    expect(
      records === 'busy'
        ? 'busy'
        : records.find((r) => r.tenant === 'demo' && r.kind === 'evidence')?.deleted,
    ).toBe(9);
    expect(await list(`select kind as v from user_evidences`)).toEqual(['reverse']);
    expect(await list(`select seq::text as v from portrayal_images`)).toEqual(['5']);
    expect(await list(`select kind as v from evidence_deletions`)).toEqual([
      'obverse',
      'obverse',
      'selfie',
      'selfie',
    ]);
  });

  it('staff see the image deleted by the retention rule, with the date', async () => {
    const ana = await addUser('demo', 'ana');
    await addEvidence('demo', ana, 'selfie', ago(31));
    await addEvidence('demo', ana, 'obverse', ago(1));
    await runRetention(options(db));
    const app = createApp({
      ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
      auth: fakeAuth,
      onboarding: { engine: basicEngine, production: false },
    });
    const headers = headersOf(person('staff-admin', 'demo', ['get_users_all']));
    const detail = await app.request(`/api/public/users/${ana}`, { headers });
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as { evidences: string[]; deleted_evidences: unknown[] };
    expect(body.evidences).toEqual(['obverse']);
    expect(body.deleted_evidences).toEqual([
      { kind: 'selfie', deleted_at: NOW.toISOString(), deleted_by: 'retention' },
    ]);
    const selfie = await app.request(`/api/public/users/${ana}/selfie`, { headers });
    expect(selfie.status).toBe(410);
    expect(await selfie.json()).toMatchObject({
      code: 'evidence_deleted',
      deleted_at: NOW.toISOString(),
      deleted_by: 'retention',
    });
    expect((await app.request(`/api/public/users/${ana}/reverse`, { headers })).status).toBe(404);
    expect((await app.request(`/api/public/users/${ana}/obverse`, { headers })).status).toBe(200);
  });

  it('rewrites the tables at the end of the run on PostgreSQL, on PGlite once the server is quiet', async () => {
    await addAudit('demo', 'due', ago(21));
    const rewritten = () =>
      list(
        `select kind || ' ' || coalesce(to_char(rewritten_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI'), 'waiting') as v
           from retention_runs where deleted > 0`,
      );
    const at = (hours: number) => ({ now: () => new Date(NOW.getTime() + hours * 60 * 60 * 1000) });
    await runRetention(options(db));
    if (db.kind === 'postgres') {
      expect(await rewritten()).toEqual(['audit 2026-06-15 12:00']);
      return;
    }
    // The embedded database: the server was busy at the end of the run, and still is an hour later.
    expect(await rewritten()).toEqual(['audit waiting']);
    expect(await rewriteIfDue({ ...options(db), clock: at(1) })).toEqual([]);
    expect(await rewritten()).toEqual(['audit waiting']);
    // Quiet two hours later: rewritten then, and nothing waits any more.
    expect(await rewriteIfDue({ ...options(db), clock: at(2), quiet: () => true })).toEqual(['audit']);
    expect(await rewritten()).toEqual(['audit 2026-06-15 14:00']);
    expect(await rewriteIfDue({ ...options(db), clock: at(30), quiet: () => true })).toEqual([]);
  });

  it('purges from one process at a time: a second purger finds the lock taken and deletes nothing', async () => {
    await addAudit('demo', 'due', ago(21));
    // Another process of the cluster: its own pool on the same PostgreSQL database; PGlite is one process's.
    const other = db.kind === 'postgres' ? await secondPool(db) : db;
    try {
      const inside = await withPurgeLock(db, async () => {
        const second = await runRetention(options(other));
        const rows = await list(`select reason as v from audit_accesses`);
        return { second, rows };
      });
      expect(inside).toEqual({ second: 'busy', rows: ['due'] });
      // Once the first lets go, the next run purges.
      const later = await runRetention(options(other));
      expect(
        later === 'busy' ? 'busy' : later.find((r) => r.kind === 'audit' && r.tenant === 'demo')?.deleted,
      ).toBe(1);
    } finally {
      if (other !== db) await other.close();
    }
  });
});

async function secondPool(first: Db): Promise<Db> {
  const { inject } = await import('vitest');
  const { openPostgres } = await import('../db/postgres');
  const { rows } = await first.query<{ name: string }>('select current_database() as name');
  const url = new URL(inject('postgresServer').adminUrl);
  url.pathname = `/${rows[0]?.name ?? ''}`;
  return openPostgres(url.toString());
}
