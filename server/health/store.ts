// The health probe's one statement: the database answers.
import type { Queryable } from '../db/db';

export async function ping(db: Queryable): Promise<void> {
  await db.query('select 1');
}
