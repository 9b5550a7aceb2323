// Accreditations as the person sees them (spec §3 Accreditation: qr with starts_at and ends_at, face, proof; a qr
// one is valid only while its end is in the future, the others always; spec §3 tenant setting
// credentialTypesWhitelist). Pure rules, shared by the accreditation machine, its actors and the screens.
import type { Credential, ServerCredentialType, UserCredentials } from '../../contract/api/credentials';
import type { TenantSettings } from '../../contract/api/settings';

export type AccreditationKind = 'qr' | 'face' | 'proof';

export const KIND_OF_TYPE: Record<ServerCredentialType, AccreditationKind> = {
  qr: 'qr',
  embedding: 'face',
  enrolment_proof: 'proof',
};

/**
 * The whitelist names the portal's credential types (qr, passport, id_card, biometric_qr, embedding): qr and
 * biometric_qr allow the QR accreditation, embedding the face one, and an identity document type (passport,
 * id_card) the proof of enrolment, which is what a document proves.
 */
const WHITELIST_KINDS: Record<TenantSettings['credentialTypesWhitelist'][number], AccreditationKind> = {
  qr: 'qr',
  biometric_qr: 'qr',
  embedding: 'face',
  passport: 'proof',
  id_card: 'proof',
};

/** The kinds a tenant shows: all three when the whitelist is empty (not set). */
export function allowedKinds(whitelist: readonly string[]): AccreditationKind[] {
  if (whitelist.length === 0) return ['qr', 'face', 'proof'];
  const kinds = new Set(
    whitelist.map((type) => WHITELIST_KINDS[type as keyof typeof WHITELIST_KINDS]).filter(Boolean),
  );
  return (['qr', 'face', 'proof'] as const).filter((kind) => kinds.has(kind));
}

/** setTimeout's longest delay (about 24.8 days); a QR window is 15 days, so an end is always within it. */
export const MAX_TIMER_MS = 2_147_483_647;

/** How long until an end (ISO) comes, from `now` (ms since the epoch); 0 when past, capped for setTimeout. */
export function msUntilExpiry(endsAt: string | null, now: number): number {
  if (endsAt === null) return MAX_TIMER_MS;
  const end = Date.parse(endsAt);
  if (Number.isNaN(end)) return 0;
  return Math.min(MAX_TIMER_MS, Math.max(0, end - now));
}

export type AccreditationStatus = 'active' | 'expired' | 'revoked';

/** One row of MyAccreditations. */
export interface AccreditationItem {
  sid: string;
  kind: AccreditationKind;
  status: AccreditationStatus;
  startsAt: string;
  endsAt: string | null;
  createdAt: string;
}

export function statusOf(credential: Pick<Credential, 'state' | 'valid'>): AccreditationStatus {
  if (credential.state === 'revoked') return 'revoked';
  return credential.valid ? 'active' : 'expired';
}

const STATUS_ORDER: Record<AccreditationStatus, number> = { active: 0, expired: 1, revoked: 2 };
const KIND_ORDER: Record<AccreditationKind, number> = { qr: 0, face: 1, proof: 2 };

/**
 * The accreditations a person is shown: the tenant's kinds only; revoked ones only when nothing else of that
 * kind is left to show; by kind, valid first, newest first.
 */
export function accreditationItems(
  credentials: UserCredentials['credentials'],
  kinds: readonly AccreditationKind[],
): AccreditationItem[] {
  const items = Object.entries(credentials)
    .map(
      ([sid, c]): AccreditationItem => ({
        sid,
        kind: KIND_OF_TYPE[c.credential_type],
        status: statusOf(c),
        startsAt: c.starts_at,
        endsAt: c.ends_at,
        createdAt: c.created_at,
      }),
    )
    .filter((item) => kinds.includes(item.kind));
  const shown = items.filter(
    (item) =>
      item.status !== 'revoked' ||
      !items.some((other) => other.kind === item.kind && other.status !== 'revoked'),
  );
  return shown.sort(
    (a, b) =>
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      b.createdAt.localeCompare(a.createdAt),
  );
}

/** The holder's name as the credentials give it: first and last name, either of them, or nothing. */
export function holderOf(metadata: UserCredentials['metadata']): string {
  return [metadata.first_name, metadata.last_name].filter(Boolean).join(' ');
}

/** The person's current QR credential: the valid one, else the newest (expired or revoked), else none. */
export function currentQrSid(credentials: UserCredentials['credentials']): string | null {
  const qrs = Object.entries(credentials).filter(([, c]) => c.credential_type === 'qr');
  const newest = (list: typeof qrs) =>
    [...list].sort(
      ([, a], [, b]) => b.created_at.localeCompare(a.created_at) || b.starts_at.localeCompare(a.starts_at),
    )[0]?.[0] ?? null;
  return newest(qrs.filter(([, c]) => c.valid)) ?? newest(qrs);
}
