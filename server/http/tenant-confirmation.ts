// The typed confirmation of the Administration actions (activate all, deactivate all, delete all users, delete all
// data): the body names the tenant, { confirm: <tenant name> }. The portal's dialog asks for it, but a dialog alone
// guards nothing: any client holding the right could change every user of the tenant with one bare request.
import type { Context } from 'hono';
import { tenantConfirmation } from '../../contract/api/users';
import type { AuthEnv } from '../auth/verify';
import { HttpProblem } from './problem';
import { readBody } from './validation';

// A missing name is refused with the same code as a wrong one, so the portal shows the same words for both; a name
// that is not a string, or is too long, is still a validation problem of the contract's schema.
const confirmationBody = tenantConfirmation.partial();

/** Throws 422 confirmation_mismatch unless the body names the caller's tenant; nothing has been changed then. */
export async function confirmTenant(c: Context<AuthEnv>): Promise<void> {
  const { confirm } = await readBody(c, confirmationBody);
  if (confirm === undefined || confirm.trim() !== c.get('tenant')) {
    throw new HttpProblem(422, "Type the tenant's name to confirm.", 'confirmation_mismatch');
  }
}
