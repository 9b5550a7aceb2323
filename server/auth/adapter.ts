// oidc-provider's storage adapter on the portal database: one row per entity in oidc_payloads, keyed by
// tenant and model, so sessions, grants and refresh tokens survive a restart and never cross tenants.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/db';

interface PayloadRow {
  payload: AdapterPayload;
  expires_at: Date | null;
  consumed_at: Date | null;
}

// Revoking a grant (logout, a reused refresh token) removes the tokens issued under it, never the session or
// the interaction that merely name it (as oidc-provider's own memory adapter does).
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export function databaseAdapter(db: Db, tenant: string, now: () => number = Date.now) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(now() + expiresIn * 1000) : null;
      await db.query(
        `insert into oidc_payloads (tenant, model, id, payload, grant_id, user_code, uid, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (tenant, model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
           user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
        [
          tenant,
          this.model,
          id,
          JSON.stringify(payload),
          GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null,
          payload.userCode ?? null,
          payload.uid ?? null,
          expiresAt,
        ],
      );
    }

    private async findWhere(where: string, value: string): Promise<AdapterPayload | undefined> {
      const { rows } = await db.query<PayloadRow>(
        `select payload, expires_at, consumed_at from oidc_payloads where tenant = $1 and model = $2 and ${where} = $3 limit 1`,
        [tenant, this.model, value],
      );
      const row = rows[0];
      if (!row || (row.expires_at && row.expires_at.getTime() <= now())) return undefined;
      const payload =
        typeof row.payload === 'string' ? (JSON.parse(row.payload) as AdapterPayload) : row.payload;
      return row.consumed_at
        ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) }
        : payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db.query(
        'update oidc_payloads set consumed_at = $4 where tenant = $1 and model = $2 and id = $3',
        [tenant, this.model, id, new Date(now())],
      );
    }

    async destroy(id: string): Promise<void> {
      await db.query('delete from oidc_payloads where tenant = $1 and model = $2 and id = $3', [
        tenant,
        this.model,
        id,
      ]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('delete from oidc_payloads where tenant = $1 and grant_id = $2', [tenant, grantId]);
    }
  };
}
