import { describe, expect, it } from 'vitest';
import { pathFor, screenNames, screens } from './screens';

describe('route table', () => {
  it('names every screen of the spec', () => {
    for (const screen of [
      'Callback',
      'Silent',
      'VisitConfirmation',
      'FinishRegisterWithError',
      'DeviceDetect',
      'IdentityProofingStep',
      'ResetCredentials',
      'AccreditProof',
      'ErrorScreen',
      'Landing',
      'PrivacyOnboarding',
      'RegisterDocuments',
      'DocumentScan',
      'RegisterSelfie',
      'TakeSelfie',
      'TakeSelfieAlive',
      'ReviewRegister',
      'RegisterForm',
      'NextSteps',
      'FinishRegister',
      'FinishRegisterWithQr',
      'UserHome',
      'UserProfile',
      'DeleteAccount',
      'ProcessVisit',
      'VisitList',
      'MyVisits',
      'NewVisit',
      'VisitDetail',
      'MyAccreditations',
      'AccreditationDetail',
      'AccreditFace',
      'PortalManagement',
      'PortalAccounts',
      'PortalUsers',
      'PortalUserDetail',
      'SingleRegistration',
      'DelegatedFinishRegister',
      'AuditAccesses',
      'ActivateUsers',
      'CheckInterdictions',
      'AssistantAccountCancellation',
      'UploadWatchlist',
      'UploadWatchlistResult',
    ]) {
      expect(screenNames).toContain(screen);
    }
  });

  it('keeps the public screens of spec §2 public and guards the rest', () => {
    const publicScreens = screenNames.filter((s) => screens[s].guard === 'public').sort();
    expect(publicScreens).toEqual(
      [
        'AccreditProof',
        'Callback',
        'DeviceDetect',
        'ErrorScreen',
        'FinishRegisterWithError',
        'IdentityProofingStep',
        'ResetCredentials',
        'Silent',
        'VisitConfirmation',
        'Welcome',
      ].sort(),
    );
  });

  it('has no two screens on the same path', () => {
    const paths = screenNames.map((s) => screens[s].path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('fills parameters, encoding them, and refuses a missing required one', () => {
    expect(pathFor('FinishRegisterWithQr', { userId: 'u 1', qrId: 'q/2' })).toBe(
      '/finish-register/u%201/q%2F2',
    );
    expect(pathFor('NewVisit')).toBe('/new-visit');
    expect(pathFor('NewVisit', { userId: 'u1' })).toBe('/new-visit/u1');
    expect(pathFor('FinishRegister')).toBeUndefined();
    expect(pathFor('Welcome')).toBe('/');
  });
});
