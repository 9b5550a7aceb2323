// SQL of portrayals, their images and the liveness challenges. A person reaches a portrayal they own or
// assist, or one of an onboarding they reach.
import type { FailedCheck, ImageKind, PortrayalType, Verification } from '../../../contract/api/onboarding';
import type { Db, Queryable } from '../../db/db';
import type { Owner } from './onboardings';

export interface PortrayalRow {
  portrayal_id: string;
  onboarding_id: string | null;
  owner_id: string;
  assisted_by: string | null;
  user_id: string | null;
  portrayal_type: PortrayalType;
  document_type: string | null;
  document_country: string | null;
  life_proofing: boolean;
  liveness_result: Verification | null;
  registration: Record<string, unknown> | null;
  images_version: number;
  images_updated_at: Date | null;
  computed_version: number | null;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_image: string | null;
  /** Which check refused the pictures (field and rule), when a document check did. */
  error_check: FailedCheck | null;
  /** The status of its onboarding (null without one). */
  onboarding_status: string | null;
}

export interface ImageRow {
  kind: ImageKind;
  seq: number;
  content_type: string;
  bytes: Uint8Array;
  sharpness: number | null;
  blurred: boolean | null;
}

export async function findOwnPortrayal(
  q: Queryable,
  owner: Owner,
  id: string,
): Promise<PortrayalRow | undefined> {
  const { rows } = await q.query<PortrayalRow>(
    `select p.*, o.status as onboarding_status
       from portrayals p
       left join onboardings o on o.tenant = p.tenant and o.onboarding_id = p.onboarding_id
      where p.tenant = $1 and p.portrayal_id = $2
        and (p.owner_id = $3 or p.assisted_by = $3 or o.created_by = $3 or o.account_id = $3 or o.assisted_by = $3)`,
    [owner.tenant, id, owner.sub],
  );
  return rows[0];
}

/** A portrayal of an onboarding the caller already reached (the confirmation names both). */
export async function findPortrayalOf(
  q: Queryable,
  tenant: string,
  onboardingId: string,
  portrayalId: string,
): Promise<PortrayalRow | undefined> {
  const { rows } = await q.query<PortrayalRow>(
    'select *, null as onboarding_status from portrayals where tenant = $1 and portrayal_id = $2 and onboarding_id = $3',
    [tenant, portrayalId, onboardingId],
  );
  return rows[0];
}

export async function portrayalsOf(
  q: Queryable,
  tenant: string,
  onboardingId: string,
): Promise<PortrayalRow[]> {
  const { rows } = await q.query<PortrayalRow>(
    'select * from portrayals where tenant = $1 and onboarding_id = $2 order by created_at, portrayal_id',
    [tenant, onboardingId],
  );
  return rows;
}

export interface NewPortrayal {
  tenant: string;
  onboardingId: string | null;
  ownerId: string;
  assistedBy: string | null;
  userId: string;
  portrayalType: PortrayalType;
  documentType: string | null;
  documentCountry: string | null;
  process: string | null;
  lifeProofing: boolean;
  stamp: Date;
}

export async function insertPortrayal(q: Queryable, n: NewPortrayal): Promise<string | undefined> {
  const { rows } = await q.query<{ portrayal_id: string }>(
    `insert into portrayals (tenant, onboarding_id, owner_id, assisted_by, user_id, portrayal_type, document_type,
       document_country, process, life_proofing, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning portrayal_id`,
    [
      n.tenant,
      n.onboardingId,
      n.ownerId,
      n.assistedBy,
      n.userId,
      n.portrayalType,
      n.documentType,
      n.documentCountry,
      n.process,
      n.lifeProofing,
      n.stamp,
    ],
  );
  return rows[0]?.portrayal_id;
}

export async function deletePortrayal(q: Queryable, tenant: string, id: string): Promise<void> {
  await q.query('delete from portrayals where tenant = $1 and portrayal_id = $2', [tenant, id]);
}

export async function imagesOf(q: Queryable, tenant: string, portrayalId: string): Promise<ImageRow[]> {
  const { rows } = await q.query<ImageRow>(
    `select kind, seq, content_type, bytes, sharpness, blurred from portrayal_images
      where tenant = $1 and portrayal_id = $2 order by kind, seq`,
    [tenant, portrayalId],
  );
  return rows;
}

/** Which kinds of image each portrayal has received. */
export async function imageKindsOf(
  q: Queryable,
  tenant: string,
  portrayalIds: string[],
): Promise<{ portrayal_id: string; kind: string }[]> {
  const { rows } = await q.query<{ portrayal_id: string; kind: string }>(
    `select distinct portrayal_id, kind from portrayal_images
      where tenant = $1 and portrayal_id = any($2::uuid[]) order by kind`,
    [tenant, portrayalIds],
  );
  return rows;
}

export interface StoredImage {
  seq: number;
  contentType: string;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
  sharpness: number | null;
  blurred: boolean | null;
}

export interface LivenessRecord {
  livenessResult: Verification;
  livenessDetail: string;
  livenessData: unknown;
  challengeId: string | null;
}

/**
 * Replaces the images of one kind and bumps the images version, so that a result computed from the old
 * images is never served for the new ones.
 */
export async function replaceImages(
  db: Db,
  tenant: string,
  portrayalId: string,
  kind: ImageKind,
  images: StoredImage[],
  stamp: Date,
  liveness?: LivenessRecord,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from portrayal_images where tenant = $1 and portrayal_id = $2 and kind = $3', [
      tenant,
      portrayalId,
      kind,
    ]);
    for (const image of images) {
      await tx.query(
        `insert into portrayal_images (tenant, portrayal_id, kind, seq, content_type, format, bytes, width, height,
           sharpness, blurred, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          tenant,
          portrayalId,
          kind,
          image.seq,
          image.contentType,
          image.contentType.split('/')[1] ?? null,
          image.bytes,
          image.width,
          image.height,
          image.sharpness,
          image.blurred,
          stamp,
        ],
      );
    }
    await tx.query(
      `update portrayals set images_version = images_version + 1, images_updated_at = $3,
              liveness_result = coalesce($4, liveness_result), liveness_detail = coalesce($5, liveness_detail),
              liveness_data = coalesce($6::jsonb, liveness_data), challenge_id = coalesce($7, challenge_id)
        where tenant = $1 and portrayal_id = $2`,
      [
        tenant,
        portrayalId,
        stamp,
        liveness?.livenessResult ?? null,
        liveness?.livenessDetail ?? null,
        liveness?.livenessData === undefined ? null : JSON.stringify(liveness.livenessData),
        liveness?.challengeId ?? null,
      ],
    );
  });
}

/**
 * Stores a computed result, unless images came in since it was computed from `imagesVersion`; a refusal is
 * also kept in portrayal_refusals (a retry's pictures replace the portrayal's answer, not that record).
 */
/** The stored answer for this images version of a portrayal, or null while it has not been computed. */
export async function storedResult(
  q: Queryable,
  tenant: string,
  portrayalId: string,
  imagesVersion: number,
): Promise<{
  result: Record<string, unknown> | null;
  error: { code: string; image: string | null; check: FailedCheck | null } | null;
} | null> {
  const { rows } = await q.query<{
    result: Record<string, unknown> | null;
    error_code: string | null;
    error_image: string | null;
    error_check: FailedCheck | null;
  }>(
    `select result, error_code, error_image, error_check from portrayals
      where tenant = $1 and portrayal_id = $2 and computed_version = $3`,
    [tenant, portrayalId, imagesVersion],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    result: row.error_code ? null : row.result,
    error: row.error_code ? { code: row.error_code, image: row.error_image, check: row.error_check } : null,
  };
}

export async function saveResult(
  db: Db,
  tenant: string,
  portrayalId: string,
  imagesVersion: number,
  result: Record<string, unknown> | null,
  error: { code: string; image: string | null; check?: FailedCheck | null } | null,
  stamp: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const saved = await tx.query(
      `update portrayals set result = $3, error_code = $4, error_image = $5, computed_version = $6, computed_at = $7,
              error_check = $8::jsonb
        where tenant = $1 and portrayal_id = $2 and images_version = $6
        returning 1`,
      [
        tenant,
        portrayalId,
        result === null ? null : JSON.stringify(result),
        error?.code ?? null,
        error?.image ?? null,
        imagesVersion,
        stamp,
        error?.check ? JSON.stringify(error.check) : null,
      ],
    );
    if (!error || saved.rows.length === 0) return;
    await tx.query(
      `insert into portrayal_refusals (tenant, portrayal_id, images_version, error_code, error_image, check_field,
         check_rule, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (tenant, portrayal_id, images_version) do nothing`,
      [
        tenant,
        portrayalId,
        imagesVersion,
        error.code,
        error.image,
        error.check?.field ?? null,
        error.check?.rule ?? null,
        stamp,
      ],
    );
  });
}

export interface PortrayalRefusal {
  error_code: string;
  check: FailedCheck | null;
  at: string;
}

/** The refusals of a portrayal's pictures, oldest first. */
export async function refusalsOf(
  q: Queryable,
  tenant: string,
  portrayalId: string,
): Promise<PortrayalRefusal[]> {
  const { rows } = await q.query<{
    error_code: string;
    check_field: FailedCheck['field'] | null;
    check_rule: FailedCheck['rule'] | null;
    created_at: Date;
  }>(
    `select error_code, check_field, check_rule, created_at from portrayal_refusals
      where tenant = $1 and portrayal_id = $2 order by images_version`,
    [tenant, portrayalId],
  );
  return rows.map((row) => ({
    error_code: row.error_code,
    check: row.check_field && row.check_rule ? { field: row.check_field, rule: row.check_rule } : null,
    at: new Date(row.created_at).toISOString(),
  }));
}

export async function insertChallenge(
  q: Queryable,
  owner: Owner,
  actions: string[],
  expiresAt: Date,
  stamp: Date,
): Promise<string | undefined> {
  const { rows } = await q.query<{ challenge_id: string }>(
    `insert into challenges (tenant, account_id, actions, expires_at, created_at) values ($1, $2, $3, $4, $5)
     returning challenge_id`,
    [owner.tenant, owner.sub, JSON.stringify(actions), expiresAt, stamp],
  );
  return rows[0]?.challenge_id;
}

/** A challenge issued to the caller. */
export async function findOwnChallenge(
  q: Queryable,
  owner: Owner,
  id: string,
): Promise<{ actions: string[]; expires_at: Date } | undefined> {
  const { rows } = await q.query<{ actions: string[]; expires_at: Date }>(
    'select actions, expires_at from challenges where tenant = $1 and challenge_id = $2 and account_id = $3',
    [owner.tenant, id, owner.sub],
  );
  return rows[0];
}
