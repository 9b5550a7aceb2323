import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAccountByLogin } from '../auth/accounts';
import { loginClashes, loginsTaken, reportLoginClashes } from '../auth/logins';
import type { Logger } from '../logger';
import type { Db } from './db';
import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';
import { SEED_DATA, seed } from './seed';

let db: Db;

/** Each test of the suite gets a new database (a copy of the run's image: tests/support/setup-server.ts). */
function newDatabaseEachTest() {
  beforeEach(async () => {
    db = await openPglite('memory://');
  });
  afterEach(async () => {
    await db.close();
  });
}

const count = async (sql: string, params?: unknown[]) =>
  (await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).rows[0]?.n;

describe('migrate', () => {
  newDatabaseEachTest();

  it('applies every migration once, in order, and a second run is a no-op', async () => {
    const files = readMigrations().map((m) => m.name);
    expect(files[0]).toBe('001_facilities.sql');

    const first = await migrate(db);
    expect(first).toEqual({ wasNew: true, applied: files });
    const recorded = await db.query<{ version: string }>(
      'select version from schema_migrations order by version',
    );
    expect(recorded.rows.map((r) => r.version)).toEqual(readMigrations().map((m) => m.version));

    const second = await migrate(db);
    expect(second).toEqual({ wasNew: false, applied: [] });
    expect(await count('schema_migrations')).toBe(files.length);
  });

  it('runs each migration in a transaction: a failing one leaves no trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '001_ok.sql'), 'create table ok_table (tenant text not null);');
      writeFileSync(
        join(dir, '002_broken.sql'),
        'create table half (tenant text not null); select no_such_fn();',
      );
      writeFileSync(join(dir, '010_later.sql'), 'create table later (tenant text not null);');
      await expect(migrate(db, readMigrations(dir))).rejects.toThrow();
      expect(await count('schema_migrations')).toBe(1);
      expect(await count("pg_tables where tablename in ('ok_table', 'half', 'later')")).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every table a tenant column', async () => {
    await migrate(db);
    const missing = await db.query<{ table_name: string }>(
      `select t.table_name from information_schema.tables t
       where t.table_schema = 'public' and t.table_name <> 'schema_migrations'
         and not exists (select 1 from information_schema.columns c
           where c.table_name = t.table_name and c.column_name = 'tenant' and c.is_nullable = 'NO')`,
    );
    expect(missing.rows).toEqual([]);
  });
});

describe('readMigrations', () => {
  it('orders by number and refuses badly named or duplicate files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    try {
      writeFileSync(join(dir, '010_b.sql'), '');
      writeFileSync(join(dir, '002_a.sql'), '');
      expect(readMigrations(dir).map((m) => m.name)).toEqual(['002_a.sql', '010_b.sql']);
      writeFileSync(join(dir, '0002_again.sql'), '');
      expect(() => readMigrations(dir)).toThrow(/share version/);
      rmSync(join(dir, '0002_again.sql'));
      writeFileSync(join(dir, 'oops.sql'), '');
      expect(() => readMigrations(dir)).toThrow(/001_name.sql/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('seed', () => {
  newDatabaseEachTest();
  const tenants = ['demo', 'gambling'];

  it('seeds three distinct facilities per tenant on a new database', async () => {
    const { wasNew } = await migrate(db);
    expect(await seed(db, { isNewDb: wasNew, nodeEnv: 'development', tenants })).toBe('seeded');
    for (const tenant of tenants) {
      const rows = await db.query<{ alias: string; timezone: string; legal_domain: string | null }>(
        'select alias, timezone, legal_domain from facilities where tenant = $1 order by alias',
        [tenant],
      );
      expect(rows.rows).toHaveLength(3);
      expect(new Set(rows.rows.map((r) => r.alias)).size).toBe(3);
      expect(rows.rows).toEqual(
        [...(SEED_DATA[tenant]?.facilities ?? [])]
          .sort((a, b) => a.alias.localeCompare(b.alias))
          .map((f) => ({ alias: f.alias, timezone: f.timezone, legal_domain: f.legalDomain ?? null })),
      );
    }
  });

  it('never seeds in production', async () => {
    const { wasNew } = await migrate(db);
    expect(await seed(db, { isNewDb: wasNew, nodeEnv: 'production', tenants })).toBe('skipped-production');
    expect(await count('facilities')).toBe(0);
  });

  it('does not seed a database that already existed', async () => {
    await migrate(db);
    const { wasNew } = await migrate(db);
    expect(wasNew).toBe(false);
    expect(await seed(db, { isNewDb: wasNew, nodeEnv: 'development', tenants })).toBe('skipped-existing');
    expect(await count('facilities')).toBe(0);
  });

  it('leaves tenants without seed data empty', async () => {
    const { wasNew } = await migrate(db);
    await seed(db, { isNewDb: wasNew, tenants: ['newcomer'] });
    expect(await count('facilities')).toBe(0);
    expect(await count('accounts')).toBe(0);
  });

  it('gives the tenants of SEED_ACCOUNT_TENANTS the seeded accounts and nothing else', async () => {
    const { wasNew } = await migrate(db);
    process.env.SEED_ACCOUNT_TENANTS = 'steps';
    try {
      await seed(db, { isNewDb: wasNew, tenants: ['steps', 'other'] });
    } finally {
      delete process.env.SEED_ACCOUNT_TENANTS;
    }
    expect(await findAccountByLogin(db, 'steps', 'newcomer')).toMatchObject({ enrolled: false });
    expect(await count(`accounts where tenant <> 'steps'`)).toBe(0);
    expect(await count('facilities')).toBe(0);
  });
  it('gives every seeded user a region', async () => {
    const { wasNew } = await migrate(db);
    await seed(db, { isNewDb: wasNew, nodeEnv: 'development', tenants });
    expect(await count('users')).toBeGreaterThan(0);
    expect(await count('users where region is null')).toBe(0);
  });
});

describe('019_user_regions: the region of the users registered before', () => {
  newDatabaseEachTest();

  it('backfills from the onboarding’s facility, then the registering account’s facility, then the home region', async () => {
    const all = readMigrations();
    await migrate(
      db,
      all.filter((m) => Number(m.version) < 19),
    );
    const user = (n: number, onboarding: string | null, assistedBy: string | null, region: string | null) =>
      `('gambling', 'a${n}', 'P', 'P', '1980-01-01', 'D${n}', 'id_card', 'completed', 'auto', 'not_computed',
        'not_computed', 'not_computed', 'not_computed', 'not_computed', ${onboarding ? `'${onboarding}'` : 'null'},
        ${assistedBy ? `'${assistedBy}'` : 'null'}, ${region ? `'${region}'` : 'null'})`;
    await db.exec(`
      insert into facilities (tenant, facility_id, alias, timezone, legal_domain) values
        ('gambling', 'f-cn', 'Sala Las Palmas', 'Atlantic/Canary', 'es-cn'),
        ('gambling', 'f-ct', 'Sala Barcelona', 'Europe/Madrid', 'es-ct'),
        ('gambling', 'f-none', 'Casino Gran Vía', 'Europe/Madrid', null);
      insert into watchlists (tenant, legal_domain) values ('gambling', 'es-nc'), ('gambling', 'es-an');
      insert into account_facilities (tenant, account_id, facility_id) values ('gambling', 'helper', 'f-ct');
      insert into onboardings (tenant, onboarding_id, mode, created_by, location, register_mode, identity_proofing,
          life_proofing, biometric_qr, supported_docs)
        values ('gambling', '00000000-0000-4000-8000-000000000001', 'auto', 'p1', 'sala las palmas', 'auto', true,
                false, false, '[]'),
               ('gambling', '00000000-0000-4000-8000-000000000002', 'auto', 'p4', 'f-none', 'auto', true, false,
                false, '[]');
      insert into users (tenant, acs_id, first_name, last_name, birth_date, document_number, document_type,
          onboarding_state, register_mode, life_proofing_result, identity_proofing_result, ocr_integrity,
          document_validity, selfie_authenticity, onboarding_id, assisted_by, region) values
        ${user(1, '00000000-0000-4000-8000-000000000001', 'helper', null)},
        ${user(2, null, 'helper', null)},
        ${user(3, null, null, 'es-ri')},
        ${user(4, '00000000-0000-4000-8000-000000000002', null, null)};
    `);
    await migrate(db, all);
    const { rows } = await db.query<{ acs_id: string; region: string | null }>(
      "select acs_id, region from users where tenant = 'gambling' order by acs_id",
    );
    expect(rows).toEqual([
      { acs_id: 'a1', region: 'es-cn' }, // the onboarding's facility (by alias), before the assistant's
      { acs_id: 'a2', region: 'es-ct' }, // the assistant's facility
      { acs_id: 'a3', region: 'es-ri' }, // kept
      { acs_id: 'a4', region: 'es-an' }, // a facility of no legal domain: the home region
    ]);
  });
});

describe('020_unambiguous_logins: a login names one account', () => {
  newDatabaseEachTest();

  const account = (tenant: string, username: string, email: string | null, minutesAgo: number) =>
    db.query<{ id: string }>(
      `insert into accounts (tenant, username, email, created_at) values ($1, $2, $3, now() - make_interval(mins => $4))
       returning id::text as id`,
      [tenant, username, email, minutesAgo],
    );

  it('keeps existing clashes usable, reports them and signs none of them in; refuses new ones', async () => {
    const all = readMigrations();
    await migrate(
      db,
      all.filter((m) => Number(m.version) < 20),
    );
    const owner = (await account('demo', 'vera', 'vera@demo.example', 60)).rows[0]?.id;
    // A later account whose username is the first one's email, in another case and with an accent.
    const impostor = (await account('demo', 'Véra@Demo.example', 'attacker@evil.example', 5)).rows[0]?.id;
    const other = (await account('demo', 'other', 'other@demo.example', 1)).rows[0]?.id;
    // The same login in another tenant is another login.
    await account('gambling', 'vera@demo.example', null, 1);

    expect(
      await migrate(
        db,
        all.filter((m) => Number(m.version) <= 20),
      ),
    ).toMatchObject({
      applied: ['020_unambiguous_logins.sql'],
    });

    const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
    const logger: Logger = {
      log: (level, msg, fields) => lines.push({ level, msg, ...(fields ? { fields } : {}) }),
    };
    expect(await reportLoginClashes(db, logger)).toBe(1);
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'accounts share a login; it signs none of them in until it is changed',
        fields: { tenant: 'demo', accounts: [owner, impostor] },
      },
    ]);
    // The shared login names neither; each one's other login still names its account.
    expect(await findAccountByLogin(db, 'demo', 'vera@demo.example')).toBeUndefined();
    expect((await findAccountByLogin(db, 'demo', 'VERA'))?.id).toBe(owner);
    expect((await findAccountByLogin(db, 'demo', 'Attacker@Evil.example'))?.id).toBe(impostor);
    expect((await findAccountByLogin(db, 'demo', ' óther@demo.example '))?.id).toBe(other);
    expect((await findAccountByLogin(db, 'gambling', 'vera@demo.example'))?.username).toBe(
      'vera@demo.example',
    );

    // The accounts that clash stay writable apart from their logins.
    await db.query("update accounts set locale = 'eu' where tenant = 'demo' and id = $1", [impostor]);
    // No new clash, by insert or update, in any case or with accents.
    const refused = { code: '23505', constraint: 'account_logins_pkey' };
    await expect(account('demo', 'newcomer', 'ÓTHER@demo.example', 0)).rejects.toMatchObject(refused);
    await expect(account('demo', 'Ótheř', null, 0)).rejects.toMatchObject(refused);
    await expect(
      db.query("update accounts set email = 'vera' where tenant = 'demo' and id = $1", [other]),
    ).rejects.toMatchObject(refused);
    // Once the impostor's username changes, the login is the owner's alone.
    await db.query("update accounts set username = 'impostor' where tenant = 'demo' and id = $1", [impostor]);
    expect(await loginClashes(db)).toEqual([]);
    expect((await findAccountByLogin(db, 'demo', 'vera@demo.example'))?.id).toBe(owner);
  });

  it('answers which field of a new account is another account’s login', async () => {
    await migrate(db);
    const id = (await account('demo', 'ana', 'ana@demo.example', 1)).rows[0]?.id ?? null;
    expect(await loginsTaken(db, 'demo', { username: 'ANA@demo.example', email: 'x@evil.example' })).toEqual([
      { field: 'username', code: 'username_already_in_use' },
    ]);
    expect(await loginsTaken(db, 'demo', { username: 'x@evil.example', email: 'Ána' })).toEqual([
      { field: 'email', code: 'email_already_in_use' },
    ]);
    // A username that is the email says it once, beside the email.
    expect(
      await loginsTaken(db, 'demo', { username: 'ana@demo.example', email: 'ana@demo.example' }),
    ).toEqual([{ field: 'email', code: 'email_already_in_use' }]);
    expect(await loginsTaken(db, 'demo', { username: 'ana', email: 'ana@demo.example' }, id)).toEqual([]);
    expect(await loginsTaken(db, 'gambling', { username: 'ana', email: 'ana@demo.example' })).toEqual([]);
  });
});
