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

export function regionsRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  const { db } = deps;
  const settingsOf = settingsLoader(deps.config.publicDir);
  const app = new Hono<AuthEnv>();

  app.post('/public/users/activation', auth.requireAuth('post_credentials_location'), async (c) => {
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const settings = await settingsOf(tenant);
    const assistantNotUserManager =
      claims.roles.includes('post_onboardings_assisted') && !claims.roles.includes('get_users_all');
    if (!assistantNotUserManager || settings.domain !== 'gambling') {
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
    const idNumber = body.id_number?.replace(/[\s-]/g, '').toUpperCase() ?? '';
    // Where the assistant works: the facility they are in charge of, else the one of their account's location.
    const { rows: facilities } = await db.query<{ facility_id: string; alias: string }>(
      `select f.facility_id, f.alias from facilities f
         left join account_facilities af on af.tenant = f.tenant and af.facility_id = f.facility_id
                                         and af.account_id = $2
         left join accounts a on a.tenant = f.tenant and a.id::text = $2
                             and (a.location = f.facility_id or lower(a.location) = lower(f.alias))
        where f.tenant = $1 and (af.account_id is not null or a.id is not null)
        order by (af.account_id is not null) desc, f.alias limit 1`,
      [tenant, claims.sub],
    );
    const facility = facilities[0];
    if (!facility) {
      throw new HttpProblem(409, 'You are in charge of no facility to activate users in.', 'no_facility');
    }
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<{ user_id: string }>(
        `update users set active = true
          where tenant = $1 and region = $2
            and ($3 = '' or upper(coalesce(id_number, '')) = $3 or upper(coalesce(nie, '')) = $3)
          returning user_id::text as user_id`,
        [tenant, region, idNumber],
      );
      if (rows.length === 0) {
        throw new HttpProblem(404, 'No users of that region were found.', 'no_users_found');
      }
      await tx.query(
        `insert into user_locations (tenant, user_id, facility_id, added_by)
         select $1, id::uuid, $2, $3 from unnest($4::text[]) as id
         on conflict do nothing`,
        [tenant, facility.facility_id, claims.sub, rows.map((row) => row.user_id)],
      );
      return c.json<ActivationResult>({
        users: rows.length,
        region,
        facility_id: facility.facility_id,
        alias: facility.alias,
      });
    });
  });

  return app;
}
