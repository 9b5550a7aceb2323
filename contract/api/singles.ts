import { type } from 'arktype';
import { apiDate, emailAddress } from './onboarding.ts';
import { requiredText, TEXT_LIMITS, text } from './text.ts';

// POST /public/singles (spec §7; §5 single registration): either the fields plus email ('fields'), or username,
// acs_id, email and an image ('image', base64 of a jpg or png). acs_id is checked against the tenant's acsIdSchema
// by the server (contract/domain/singles.ts). send_qr_by_email asks for the QR to be mailed (refused where not allowed).
const alphanumeric = type(/^[A-Za-z0-9]{1,32}$/);
const acsIdText = type(/^[\x21-\x7e]{1,64}$/);

export const singleRegistrationBody = type({
  mode: "'fields' | 'image'",
  email: emailAddress,
  'acs_id?': acsIdText.or("null | ''"),
  'username?': text(TEXT_LIMITS.email).or('null'),
  'first_name?': requiredText(TEXT_LIMITS.name).or('null'),
  'last_name?': requiredText(TEXT_LIMITS.name).or('null'),
  'birth_date?': apiDate.or('null'),
  'document_type?': "'id_card' | 'passport' | 'driving_license' | 'others' | null",
  'document_number?': alphanumeric.or('null'),
  'id_number?': alphanumeric.or("null | ''"),
  'image?': type(/^[A-Za-z0-9+/]+=*$/).or('null'),
  'send_qr_by_email?': 'boolean',
  /** DelegatedFinishRegister: the delegated onboarding's image bounds (6,828 to 6,990,508 bytes). */
  'delegated?': 'boolean',
});
export type SingleRegistrationBody = typeof singleRegistrationBody.inferIn;

/** The answer: result.outcome and result.reason (spec §7), with the user registration code (spec §8). */
export const singleRegistrationResult = type({
  result: {
    outcome: "'accepted' | 'rejected'",
    reason: 'string | null',
    code: '0 | 1 | 2 | 3',
    'user_id?': 'string',
    'qr_sid?': 'string',
    'qr_emailed?': 'boolean',
  },
});
export type SingleRegistrationResult = typeof singleRegistrationResult.infer;
