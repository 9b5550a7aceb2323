// The interdiction check (spec §4/§8 interdiction results; CheckInterdictions): an assistant asks whether a person
// (id number and birth date, more with extendedInterdictionForm) may play, decided against the current prohibited
// lists of the tenant's legal domains.
import type { InterdictionRequest, InterdictionResponse } from '../../contract/api/audit';
import type { Queryable } from '../db/db';
import { type EnforcementSource, EnforcementUnavailableError } from '../enforcement/source';

export const ADULT_AGE = 18;

/** Whole years between the birth date (YYYY-MM-DD) and today (UTC). */
export function ageOn(birthDate: string, today: Date): number {
  const [y, m, d] = birthDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  return age;
}

/**
 * underaged (younger than 18) first; then the registered user with that id number: none is user_not_found, one
 * whose birth date differs is indeterminate (the data do not identify one person); then the prohibited lists:
 * on one is denied, the lists unavailable is indeterminate, else granted.
 */
export async function checkInterdiction(
  q: Queryable,
  tenant: string,
  request: InterdictionRequest,
  options: { now: Date; legalDomains: string[]; enforcement: EnforcementSource },
): Promise<InterdictionResponse> {
  if (ageOn(request.birth_date, options.now) < ADULT_AGE) return { result: 'underaged', reason: 'underage' };
  const idNumber = request.id_number.replace(/[\s-]/g, '').toUpperCase();
  const { rows } = await q.query<{
    first_name: string;
    last_name: string;
    birth_date: string;
    document_number: string;
    id_number: string | null;
  }>(
    `select first_name, last_name, to_char(birth_date, 'YYYY-MM-DD') as birth_date, document_number, id_number
       from users where tenant = $1 and (upper(id_number) = $2 or upper(nie) = $2 or upper(document_number) = $2)
      limit 1`,
    [tenant, idNumber],
  );
  const user = rows[0];
  if (!user) return { result: 'user_not_found', reason: null };
  if (user.birth_date !== request.birth_date.slice(0, 10))
    return { result: 'indeterminate', reason: 'data_mismatch' };
  try {
    const match = await options.enforcement.check(q, tenant, options.legalDomains, {
      first_name: request.first_name ?? user.first_name,
      last_name: request.last_name ?? user.last_name,
      birth_date: user.birth_date,
      document_number: request.document_number || user.document_number,
      id_number: user.id_number ?? idNumber,
    });
    return match
      ? { result: 'denied', reason: `user_interdicted:${match.legal_domain}` }
      : { result: 'granted', reason: null };
  } catch (error) {
    if (error instanceof EnforcementUnavailableError) {
      return { result: 'indeterminate', reason: 'enforcement_source_unavailable' };
    }
    throw error;
  }
}
