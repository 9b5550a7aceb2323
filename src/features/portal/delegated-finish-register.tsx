import { RegistrationScreen } from './single-registration';

/**
 * DelegatedFinishRegister (spec §2 delegated-finish-register, post_singles): staff finish a delegated onboarding from
 * an image (6,828 to 6,990,508 bytes, about 6,500,000 desired): username, acs_id, email and the image; the errors are
 * those of spec §8 delegated onboarding (unknown, document-expired, embedding-failed, id-already-used,
 * qr-generation-failed). The flow is machines/single-registration in image mode.
 */
export function DelegatedFinishRegister() {
  return <RegistrationScreen screen="DelegatedFinishRegister" delegated />;
}
