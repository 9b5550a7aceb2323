import { addToWatchlist } from '../audit/watchlists';
import type { Seeder } from '../db/seeder';

/**
 * One known prohibited-list entry per shipped tenant, in one of its legal domains (for tests and demos). Its id
 * number is nobody's: the seeded accounts' users have 0000000<n><letter> (server/auth/accounts.ts), and the seeded
 * `user` used to share 00000001R with it, so every door and interdiction check refused them.
 */
export const PROHIBITED_SEED: Readonly<
  Record<
    string,
    {
      legal_domain: string;
      document_number: string;
      id_number: string;
      first_name: string;
      last_name: string;
      birth_date: string;
    }
  >
> = {
  gambling: {
    legal_domain: 'es-an',
    document_number: 'PROHIB001',
    id_number: '99999990S',
    first_name: 'Prohibida',
    last_name: 'Ejemplo Lista',
    birth_date: '1970-01-01',
  },
  demo: {
    legal_domain: 'es-demo',
    document_number: 'PROHIB001',
    id_number: '99999990S',
    first_name: 'Prohibited',
    last_name: 'Example',
    birth_date: '1970-01-01',
  },
};

export const seedProhibitedList: Seeder = async (tx, tenant) => {
  const entry = PROHIBITED_SEED[tenant];
  if (!entry) return;
  const existing = await tx.query(
    'select 1 from watchlist_entries where tenant = $1 and document_number = $2',
    [tenant, entry.document_number],
  );
  if (existing.rows.length > 0) return;
  await addToWatchlist(tx, tenant, entry.legal_domain, [entry]);
};
