import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from '../testing/fixtures';
import { basicEngine } from './engine';
import {
  ASSISTANT_ROLES,
  confirm,
  fakeAuth,
  type Harness,
  headersOf,
  PUBLIC_DIR,
  payload,
  person,
  readyPortrayal,
} from './testing/harness';

// Every user has a region (spec §2 "activate users of another region", §3 legal domains): the registration records
// where it took place (store/region.ts), and ActivateUsers then finds the person in that region. Through the real
// app (onboarding, singles, users, activation) with the fake auth of the onboarding harness and the seed.

let h: Harness;
let site: SiteFixture;

beforeAll(async () => {
  const db = await createTestDb();
  site = createSiteFixture();
  const app = createApp({
    ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
    auth: fakeAuth,
    onboarding: { engine: basicEngine, production: false, resultDelayMs: 0 },
  });
  h = {
    app,
    db,
    faults: { enforcement: false },
    clock: { now: new Date(), advance() {} },
    async call(method, path, who, body, init = {}) {
      const headers = headersOf(who, init.tenant);
      let sent: BodyInit | undefined;
      if (body instanceof Uint8Array) {
        sent = new Blob([Uint8Array.from(body)]);
        headers['content-type'] = init.contentType ?? 'image/jpeg';
      } else if (body !== undefined) {
        sent = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      return app.request(`/api${path}`, { method, headers, body: sent });
    },
    async close() {
      await db.close();
    },
  };
});

afterAll(async () => {
  await h.close();
  site.remove();
});

/** A DNI nobody else has: 8 digits and their letter. */
function freshDni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 89_999_999);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

const ACTIVATOR_ROLES = [...ASSISTANT_ROLES, 'post_credentials_location'];

async function facilityId(tenant: string, alias: string) {
  const { rows } = await h.db.query<{ facility_id: string }>(
    'select facility_id from facilities where tenant = $1 and alias = $2',
    [tenant, alias],
  );
  if (!rows[0]) throw new Error(`no facility ${alias}`);
  return rows[0].facility_id;
}

/** An assistant in charge of a facility (account_facilities), as the seeded `assistant` is. */
async function assistantAt(alias: string) {
  const who = person(`assistant-${randomUUID()}`, 'gambling', ACTIVATOR_ROLES);
  await h.db.query('insert into account_facilities (tenant, account_id, facility_id) values ($1, $2, $3)', [
    'gambling',
    who.sub,
    await facilityId('gambling', alias),
  ]);
  return who;
}

async function regionOfUser(userId: string) {
  const { rows } = await h.db.query<{ region: string | null }>(
    'select region from users where user_id = $1::uuid',
    [userId],
  );
  return rows[0]?.region;
}

async function enrol(who: ReturnType<typeof person>, body: Record<string, unknown>, idNumber: string) {
  const started = await readyPortrayal(h, who, body);
  const res = await confirm(
    h,
    who,
    started,
    payload({ id_number: idNumber, skip_email_check: body.mode === 'assisted' }),
  );
  expect(res.status).toBe(200);
  const outcome = (await res.json()) as { result: { outcome: string }; user_id: string };
  expect(outcome.result.outcome).toBe('accepted');
  return outcome.user_id;
}

describe('the region a person registers in', () => {
  it('self-enrolment with no facility: the tenant’s home region (its first legal domain); the detail shows it', async () => {
    const userId = await enrol(person(`acc-${randomUUID()}`), { mode: 'auto' }, freshDni());
    expect(await regionOfUser(userId)).toBe('es-an');
    const manager = person('region-manager', 'gambling', ['get_users_all']);
    const detail = await h.call('GET', `/public/users/${userId}`, manager);
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as { region: string | null }).region).toBe('es-an');
  });

  it('an onboarding at a facility of a legal domain registers the person in it', async () => {
    const userId = await enrol(
      person(`acc-${randomUUID()}`),
      { mode: 'auto', location: 'Sala Las Palmas' },
      freshDni(),
    );
    expect(await regionOfUser(userId)).toBe('es-cn');
  });

  it('assisted: the assistant’s facility decides, and ActivateUsers finds the person in that region only', async () => {
    const helper = await assistantAt('Sala Las Palmas');
    const dni = freshDni();
    const userId = await enrol(
      helper,
      { mode: 'assisted', userData: { email: `${randomUUID()}@example.test` } },
      dni,
    );
    expect(await regionOfUser(userId)).toBe('es-cn');
    const elsewhere = await h.call('POST', '/public/users/activation', helper, {
      region: 'es-an',
      id_number: dni,
    });
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { code: string }).code).toBe('no_users_found');
    await h.db.query('update users set active = false where user_id = $1::uuid', [userId]);
    const found = await h.call('POST', '/public/users/activation', helper, {
      region: 'es-cn',
      id_number: dni,
    });
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ users: 1, region: 'es-cn', alias: 'Sala Las Palmas' });
    const { rows } = await h.db.query<{ active: boolean }>(
      'select active from users where user_id = $1::uuid',
      [userId],
    );
    expect(rows[0]?.active).toBe(true);
  });

  it('a single registration takes the staff member’s region; on demo, its only legal domain', async () => {
    const register = async (tenant: string, staff: ReturnType<typeof person>) => {
      const res = await h.call(
        'POST',
        '/public/singles',
        staff,
        {
          mode: 'fields',
          first_name: 'Iker',
          last_name: 'Región',
          birth_date: '1985-03-02',
          id_number: freshDni(),
          document_number: `R${randomUUID().slice(0, 8).toUpperCase()}`,
          document_type: 'id_card',
          email: `${randomUUID()}@example.test`,
        },
        { tenant },
      );
      expect(res.status).toBe(201);
      const body = (await res.json()) as { result: { user_id: string } };
      return regionOfUser(body.result.user_id);
    };
    const atLasPalmas = await assistantAt('Sala Las Palmas');
    expect(await register('gambling', { ...atLasPalmas, roles: ['post_singles'] })).toBe('es-cn');
    expect(await register('gambling', person(`staff-${randomUUID()}`, 'gambling', ['post_singles']))).toBe(
      'es-an',
    );
    expect(await register('demo', person(`staff-${randomUUID()}`, 'demo', ['post_singles']))).toBe('es-demo');
  });
});
