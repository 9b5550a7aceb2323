// ActivateUsers (spec §2 activate-users, "activate users of another region"; §4 "users can be activated in a region";
// §8 Activation: no users found), only for assistants who are not user managers, in the gambling domain (spec §2):
//   POST /public/users/activation   post_credentials_location, and the caller an assistant (post_onboardings_assisted)
//                                   without get_users_all, on a tenant whose domain is gambling
// A region is a legal domain of the tenant (settings.watchlistDomains; spec §3 "regional codes such as es-an, es-ct");
// a user registered in one (users.region). Activating the users of a region makes their credentials active again and
// adds the assistant's facility to their locations, so they get in where the assistant works. Every query names the
// tenant of the call.
import { Hono } from 'hono';
import { type ActivationResult, activationBody } from '../../contract/api/users';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { HttpProblem } from '../http/problem';
import { readBody, validationProblem } from '../http/validation';
import { settingsLoader } from '../onboarding/settings';
import { recordsStaffAction, recordsWithin } from '../staff-actions/routes';
import { idNumberOf, mayActivateRegions } from './rules';
import { activateRegion, facilityOfAssistant } from './store';

export function regionsRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  const { db } = deps;
  const settingsOf = settingsLoader(deps.config.publicDir);
  const app = new Hono<AuthEnv>();

  const activates = recordsStaffAction(db, { action: 'users.activate_region' });
  app.post(
    '/public/users/activation',
    auth.requireAuth('post_credentials_location'),
    activates,
    async (c) => {
      const tenant = c.get('tenant');
      const claims = c.get('auth');
      const settings = await settingsOf(tenant);
      if (!mayActivateRegions(claims.roles, settings.domain)) {
        throw new HttpProblem(
          403,
          'Only assistants who are not user managers, in the gambling domain, activate users of another region.',
          'forbidden',
        );
      }
      const body = await readBody(c, activationBody);
      const region = body.region.trim().toLowerCase();
      if (!settings.legalDomains.includes(region)) {
        throw validationProblem([{ field: 'region', code: 'wrong_value' }]);
      }
      const facility = await facilityOfAssistant(db, tenant, claims.sub);
      if (!facility) {
        throw new HttpProblem(409, 'You are in charge of no facility to activate users in.', 'no_facility');
      }
      return recordsWithin(c, db, async (tx) => {
        const activated = await activateRegion(tx, tenant, {
          region,
          idNumber: idNumberOf(body.id_number),
          facilityId: facility.facility_id,
          addedBy: claims.sub,
        });
        if (activated.length === 0) {
          throw new HttpProblem(404, 'No users of that region were found.', 'no_users_found');
        }
        return c.json<ActivationResult>({
          users: activated.length,
          region,
          facility_id: facility.facility_id,
          alias: facility.alias,
        });
      });
    },
  );

  return app;
}
