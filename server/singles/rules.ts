// The rules of a single registration (spec §4 register type Single; §5; §8): the body's limit, the per-field
// checks of each mode, how an acs_id is compared, and the rejection by reason that undoes a registration.
import type { SingleRegistrationBody } from '../../contract/api/singles';
import {
  type AcsIdSchema,
  acsIdProblem,
  DELEGATED_IMAGE_MAX_BYTES,
  qrEmailAllowed,
} from '../../contract/domain/singles';

/** The largest body: the largest (delegated) image in base64 plus the fields. */
export const SINGLES_MAX_BODY_BYTES = Math.ceil((DELEGATED_IMAGE_MAX_BYTES * 4) / 3) + 16 * 1024;

/** Wiegand numbers are stored without leading zeros, so 00042 and 42 are the same card. */
export const normalAcsId = (schema: AcsIdSchema, value: string) =>
  schema === 'wiegand' ? String(Number(value.trim())) : value.trim();

/** The per-field problems of the mode's fields (spec §5), before the image is looked at. */
export function fieldErrors(
  body: SingleRegistrationBody,
  acsRaw: string,
  settings: { acsIdSchema: AcsIdSchema; biometricQR: boolean },
): { field: string; code: string }[] {
  const errors: { field: string; code: string }[] = [];
  if (body.mode === 'fields') {
    for (const field of [
      'first_name',
      'last_name',
      'birth_date',
      'document_type',
      'document_number',
    ] as const) {
      if (!body[field]) errors.push({ field, code: 'required' });
    }
    if (acsRaw !== '') {
      const problem = acsIdProblem(settings.acsIdSchema, acsRaw);
      if (problem) errors.push({ field: 'acs_id', code: problem });
    }
  } else {
    if (!body.username?.trim()) errors.push({ field: 'username', code: 'required' });
    const problem = acsIdProblem(settings.acsIdSchema, acsRaw);
    if (problem) errors.push({ field: 'acs_id', code: problem });
  }
  if (body.send_qr_by_email && !qrEmailAllowed(settings)) {
    errors.push({ field: 'send_qr_by_email', code: 'email_delivery_not_allowed' });
  }
  return errors;
}

/** A rejection by reason (spec §8), thrown to undo the transaction. */
export class Rejection extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
