// Seeded enrolled people have what an enrolment leaves behind: evidence images (selfie, obverse, reverse) for their
// profile and data export, and SEED_MEMBERS=n adds n enrolled accounts member-01… (password = username, role user),
// each with a user record, a 15-day QR and evidences, for journeys that change or delete an enrolled person (a
// credential reset, a data export, an account deletion) without enrolling through the UI.
import sharp from 'sharp';
import { hashPassword } from '../auth/passwords';
import type { Queryable } from './db';
import type { Seeder } from './seeder';

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** A valid DNI for a number (spec §5: the letter is the number modulo 23). */
export const dniOf = (n: number) => `${String(n).padStart(8, '0')}${LETTERS[n % 23]}`;

function selfieSvg(initials: string, hue: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
<rect width="480" height="640" fill="hsl(${hue},35%,85%)"/>
<circle cx="240" cy="260" r="130" fill="#e8c4a0"/>
<circle cx="195" cy="240" r="14" fill="#333"/><circle cx="285" cy="240" r="14" fill="#333"/>
<path d="M190 320 Q240 360 290 320" stroke="#8a4b3a" stroke-width="10" fill="none"/>
<rect x="110" y="420" width="260" height="220" rx="110" fill="hsl(${hue},45%,40%)"/>
<text x="240" y="620" font-family="sans-serif" font-size="40" text-anchor="middle" fill="#fff">${initials}</text>
</svg>`;
}

function documentSvg(side: 'obverse' | 'reverse', name: string, number: string): string {
  const lines =
    side === 'obverse'
      ? `<rect x="40" y="90" width="200" height="250" fill="#cfd8e3"/>
<text x="280" y="140" font-size="28" font-family="sans-serif">${name}</text>
<text x="280" y="200" font-size="24" font-family="monospace">${number}</text>`
      : `<text x="40" y="300" font-size="26" font-family="monospace">IDESP${number}&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;</text>
<text x="40" y="340" font-size="26" font-family="monospace">9005175M3011234ESP&lt;&lt;&lt;&lt;&lt;&lt;</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="856" height="540">
<rect width="856" height="540" rx="30" fill="#eef3f8" stroke="#7a8ca3" stroke-width="6"/>
<text x="40" y="60" font-size="30" font-family="sans-serif" fill="#1d3a5f">DOCUMENTO DE IDENTIDAD · ESPECIMEN</text>
${lines}
</svg>`;
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).slice(0, 60);

/** The three evidence images of a seeded person, as JPEG. */
export async function evidenceImages(
  firstName: string,
  lastName: string,
  documentNumber: string,
  hue: number,
): Promise<Record<'selfie' | 'obverse' | 'reverse', Buffer>> {
  const jpeg = (svg: string) => sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  const initials = escapeXml(`${firstName[0] ?? ''}${lastName[0] ?? ''}`);
  const name = escapeXml(`${firstName} ${lastName}`);
  const number = escapeXml(documentNumber);
  const [selfie, obverse, reverse] = await Promise.all([
    jpeg(selfieSvg(initials, hue)),
    jpeg(documentSvg('obverse', name, number)),
    jpeg(documentSvg('reverse', name, number)),
  ]);
  return { selfie, obverse, reverse };
}

async function addEvidences(
  tx: Queryable,
  tenant: string,
  user: { user_id: string; first_name: string; last_name: string; document_number: string },
  hue: number,
) {
  const images = await evidenceImages(user.first_name, user.last_name, user.document_number, hue);
  for (const [kind, bytes] of Object.entries(images)) {
    await tx.query(
      `insert into user_evidences (tenant, user_id, kind, content_type, bytes)
       values ($1, $2, $3, 'image/jpeg', $4) on conflict do nothing`,
      [tenant, user.user_id, kind, bytes],
    );
  }
}

/** SEED_MEMBERS=n (at most 99): how many extra enrolled accounts to seed. */
export const seedMemberCount = (env: NodeJS.ProcessEnv = process.env) =>
  Math.min(Math.max(Number(env.SEED_MEMBERS) || 0, 0), 99);

export const seedPeople: Seeder = async (tx, tenant) => {
  const count = seedMemberCount();
  for (let i = 1; i <= count; i++) {
    const username = `member-${String(i).padStart(2, '0')}`;
    const acsId = `ACS-${tenant.toUpperCase()}-M${String(i).padStart(3, '0')}`;
    const { rows } = await tx.query<{ id: string }>(
      `insert into accounts (tenant, username, first_name, last_name, email, password_hash, roles, enrolled, acs_id,
         onboarding_status)
       values ($1, $2, 'Miren', $3, $4, $5, array['user'], true, $6, 'completed')
       on conflict do nothing returning id::text as id`,
      [tenant, username, `Socia ${i}`, `${username}@${tenant}.example`, await hashPassword(username), acsId],
    );
    const accountId = rows[0]?.id;
    if (!accountId) continue;
    const user = await tx.query<{ user_id: string }>(
      `insert into users (tenant, account_id, username, first_name, last_name, email, acs_id, id_number, nationality,
         birth_date, expiry_date, document_number, document_type, expedition_country, onboarding_state, register_mode,
         life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity)
       values ($1, $2, $3, 'Miren', $4, $5, $6, $7, 'ESP', '1988-03-09', (now() + interval '6 years')::date, $8,
         'id_card', 'ES', 'completed', 'auto', 'passing', 'passing', 'passing', 'passing', 'passing')
       returning user_id::text as user_id`,
      [
        tenant,
        accountId,
        username,
        `Socia ${i}`,
        `${username}@${tenant}.example`,
        acsId,
        dniOf(40_000_000 + i),
        `MEMB${String(i).padStart(5, '0')}`,
      ],
    );
    const userId = user.rows[0]?.user_id;
    if (!userId) continue;
    await tx.query(
      `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at)
       values ($1, $2, 'qr', now(), now() + interval '15 days')`,
      [tenant, userId],
    );
  }
  // Every seeded enrolled person (the demo accounts user and visitor too) has the images an enrolment keeps.
  const { rows: people } = await tx.query<{
    user_id: string;
    first_name: string;
    last_name: string;
    document_number: string;
  }>(
    `select user_id::text as user_id, first_name, last_name, document_number from users u
      where tenant = $1 and not exists (select 1 from user_evidences e where e.tenant = u.tenant and e.user_id = u.user_id)
      order by created_at`,
    [tenant],
  );
  for (const [index, person] of people.entries()) await addEvidences(tx, tenant, person, (index * 47) % 360);
};
