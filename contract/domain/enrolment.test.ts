import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isRetryableReason,
  legalTermsAccepted,
  nextEnrolmentStep,
  REGISTRATION_REASONS,
  registerTypeOf,
  registrationErrorCode,
  scanFailureScreen,
  stepAfterNextSteps,
} from './enrolment';

describe('enrolment rules', () => {
  it('chooses the step after Start as spec §2 says', () => {
    const on = { showNextSteps: true, onboardingSteps: true };
    expect(nextEnrolmentStep(on, true)).toBe('NextSteps');
    expect(nextEnrolmentStep(on, false)).toBe('NextSteps');
    expect(nextEnrolmentStep({ showNextSteps: false, onboardingSteps: true }, true)).toBe(
      'IdentityProofingStep',
    );
    expect(nextEnrolmentStep({ showNextSteps: false, onboardingSteps: false }, true)).toBe(
      'RegisterDocuments',
    );
    expect(nextEnrolmentStep({ showNextSteps: false, onboardingSteps: true }, false)).toBe('RegisterSelfie');
    expect(stepAfterNextSteps(on, true)).toBe('IdentityProofingStep');
    expect(stepAfterNextSteps(on, false)).toBe('RegisterSelfie');
  });

  it('property: after NextSteps the rule never shows NextSteps again', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (showNextSteps, onboardingSteps, proofing) => {
        expect(stepAfterNextSteps({ showNextSteps, onboardingSteps }, proofing)).not.toBe('NextSteps');
      }),
    );
  });

  it('decides the register type from identity_proofing (spec §4)', () => {
    expect(registerTypeOf(true)).toBe('WithIdentityProofing');
    expect(registerTypeOf(false)).toBe('OnlySelfieWithId');
  });

  it('needs the terms accepted, and the legal legitimacy too when supplying another person’s data', () => {
    expect(legalTermsAccepted('auto', { termsAccepted: true, legitimacyConfirmed: false })).toBe(true);
    expect(legalTermsAccepted('auto', { termsAccepted: false, legitimacyConfirmed: true })).toBe(false);
    expect(legalTermsAccepted('assisted', { termsAccepted: true, legitimacyConfirmed: false })).toBe(false);
    expect(legalTermsAccepted('assisted', { termsAccepted: true, legitimacyConfirmed: true })).toBe(true);
  });

  it('maps registration reasons to the codes of spec §8; only enforcement_source_unavailable is retryable', () => {
    expect(REGISTRATION_REASONS.map(registrationErrorCode)).toEqual([
      'underage',
      'forbidden-list',
      'document-expired',
      'life-proofing-failed',
      'already-registered',
      'document-already-in-use',
      'enforcement-source-unavailable',
    ]);
    expect(registrationErrorCode('toString')).toBe('unknown');
    expect(registrationErrorCode(null)).toBe('unknown');
    expect(REGISTRATION_REASONS.filter(isRetryableReason)).toEqual(['enforcement_source_unavailable']);
  });

  it('names the scan failure screen of each portrayal failure', () => {
    expect(scanFailureScreen('document_classification_error')).toBe('classification');
    expect(scanFailureScreen('blurred_image_error')).toBe('blurred');
    expect(scanFailureScreen('validas_error')).toBe('analysis');
    expect(scanFailureScreen('spoofed_image_error')).toBe('analysis');
    expect(scanFailureScreen('timeout')).toBe('undefined');
    expect(scanFailureScreen('unknown')).toBe('unknown');
  });
});
