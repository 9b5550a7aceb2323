// Sixty enrolled users per tenant for the staff portal: PortalUsers has pages to turn, and PortalUserDetail has
// evidences, verification results and credentials to show. They have no account (they enrolled at a kiosk or were
// registered by staff), a mix of states, register modes and verification results, and the three evidence images of
// seed-people.ts. SEED_STAFF_USERS=n changes how many (0 to 200).
import type { Queryable } from './db';
import { dniOf, evidenceImages } from './seed-people';
import type { Seeder } from './seeder';

const FIRST = [
  'Ainhoa',
  'Iker',
  'Lucía',
  'Mikel',
  'Carmen',
  'Jon',
  'Elena',
  'Aitor',
  'Nerea',
  'Pablo',
  'Leire',
  'Javier',
];
const LAST = [
  'Etxeberria',
  'García',
  'Zubizarreta',
  'Martínez',
  'Agirre',
  'López',
  'Urrutia',
  'Sánchez',
  'Goikoetxea',
  'Romero',
  'Arana',
];
const MODES = ['auto', 'auto', 'assisted', 'administrative'] as const;

export const staffUserCount = (env: NodeJS.ProcessEnv = process.env) => {
  const n = Number(env.SEED_STAFF_USERS);
  return env.SEED_STAFF_USERS === undefined || !Number.isFinite(n)
    ? 60
    : Math.min(Math.max(Math.trunc(n), 0), 200);
};

/** The i-th seeded staff-visible user of a tenant (deterministic, so tests and journeys can name them). */
export function seededUser(tenant: string, i: number) {
  const first = FIRST[i % FIRST.length] ?? 'Ane';
  const last = `${LAST[(i * 7) % LAST.length] ?? 'Arana'} ${LAST[(i * 3 + 1) % LAST.length] ?? 'López'}`;
  const slug = `${first}.${last.split(' ')[0]}`
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z.]/g, '');
  const mode = MODES[i % MODES.length] ?? 'auto';
  return {
    first_name: first,
    last_name: last,
    username: `${slug}${i}`,
    email: `${slug}${i}@correo.example`,
    acs_id: `ACS-${tenant.toUpperCase()}-U${String(i).padStart(3, '0')}`,
    id_number: dniOf(30_000_000 + i * 1_013),
    document_number: `DOC${tenant.slice(0, 2).toUpperCase()}${String(i).padStart(5, '0')}`,
    birth_date: `${1950 + (i % 50)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
    active: i % 9 !== 4,
    onboarding_state: i % 6 === 5 ? 'incompleted' : 'completed',
    register_mode: mode,
    assisted_by: mode === 'assisted' ? 'assistant' : null,
    results: [0, 1, 2, 3, 4].map((k) =>
      (i + k) % 7 === 3 ? 'failing' : (i + k) % 11 === 7 ? 'not_computed' : 'passing',
    ),
  };
}

type EvidenceImages = Awaited<ReturnType<typeof evidenceImages>>;

const imagesOf = (tenant: string, i: number): Promise<EvidenceImages> => {
  const u = seededUser(tenant, i);
  return evidenceImages(u.first_name, u.last_name, u.document_number, (i * 37) % 360);
};

async function insertUser(tx: Queryable, tenant: string, i: number, images: EvidenceImages) {
  const u = seededUser(tenant, i);
  const { rows } = await tx.query<{ user_id: string }>(
    `insert into users (tenant, username, first_name, last_name, email, acs_id, id_number, nationality, birth_date,
       expiry_date, document_number, document_type, expedition_country, onboarding_date, active, onboarding_state,
       register_mode, assisted_by, life_proofing_result, identity_proofing_result, ocr_integrity, document_validity,
       selfie_authenticity, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, 'ESP', $8, (now() + make_interval(months => $9))::date, $10, 'id_card', 'ES',
       now() - make_interval(days => $11), $12, $13, $14, $15, $16, $17, $18, $19, $20, now() - make_interval(days => $11))
     on conflict do nothing returning user_id::text as user_id`,
    [
      tenant,
      u.username,
      u.first_name,
      u.last_name,
      u.email,
      u.acs_id,
      u.id_number,
      u.birth_date,
      i % 10 === 3 ? -2 : 12 + (i % 60),
      u.document_number,
      i * 2,
      u.active,
      u.onboarding_state,
      u.register_mode,
      u.assisted_by,
      ...u.results,
    ],
  );
  const userId = rows[0]?.user_id;
  if (!userId) return;
  await tx.query(
    `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, metadata)
     values ($1, $2, 'qr', $3, now() - interval '1 day', now() + interval '14 days', '{"object":"portal"}'),
            ($1, $2, 'embedding', 'active', now() - make_interval(days => $4), null, '{"object":"portal"}')`,
    [tenant, userId, i % 7 === 2 ? 'revoked' : 'active', i * 2],
  );
  for (const [kind, bytes] of Object.entries(images)) {
    if (kind === 'reverse' && i % 8 === 6) continue; // some documents (passports) have no reverse
    await tx.query(
      `insert into user_evidences (tenant, user_id, kind, content_type, bytes) values ($1, $2, $3, 'image/jpeg', $4)`,
      [tenant, userId, kind, bytes],
    );
  }
}

const IMAGE_BATCH = 8;

/** Accounts whose onboarding an assistant has to complete (PortalAccounts): pending-01… (password = username). */
export const PENDING_ACCOUNTS = 3;

export const seedStaffUsers: Seeder = async (tx, tenant) => {
  const count = staffUserCount();
  // The pictures a batch at a time (sharp renders them on libuv's threads, in parallel), the rows one by one.
  for (let first = 1; first <= count; first += IMAGE_BATCH) {
    const batch = Array.from({ length: Math.min(IMAGE_BATCH, count - first + 1) }, (_, k) => first + k);
    const images = await Promise.all(batch.map((i) => imagesOf(tenant, i)));
    for (const [k, i] of batch.entries()) await insertUser(tx, tenant, i, images[k] as EvidenceImages);
  }
  for (let i = 1; i <= PENDING_ACCOUNTS; i++) {
    const username = `pending-${String(i).padStart(2, '0')}`;
    await tx.query(
      `insert into accounts (tenant, username, first_name, last_name, email, roles, onboarding_status)
       values ($1, $2, 'Paula', $3, $4, array['user'], 'incompleted') on conflict do nothing`,
      [tenant, username, `Pendiente ${i}`, `${username}@${tenant}.example`],
    );
  }
};
