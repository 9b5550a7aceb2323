import type { ScreenName } from '../domain/screens';
import { registerMachineLoader } from '../runtime/machines';
import { lazyScreen } from './lazy-screen';
import type { PortalScreen, PortalScreens } from './portal-routes';
import { withMachines } from './with-machines';

// The lazy component of every screen of src/domain/screens.ts: one chunk per area (the staff portal's: per screen),
// loaded on first use.
// Only src/app imports the features. An area whose screens start machines loads, beside them, the module that
// gives those machines their real actors (src/app/machines/), and registers it before a screen renders.
// The enrolment flow's handle (src/actors/enrolment.ts): every onboarding step loads it beside its own chunk, and
// Landing asks for it (loadMachine) only when the person starts or resumes.
const enrolmentMachines = () => import('./machines/enrolment').then((m) => m.enrolmentMachines);
registerMachineLoader(['enrolment'], enrolmentMachines);
// The onboarding area is a chunk per step: Landing, a signed-in first screen, loads neither the camera nor
// the forms, and each step brings its code when the person reaches it.
const onboardingSteps = withMachines(() => import('../features/onboarding/steps'), enrolmentMachines);
// Landing, a first screen, apart from the other steps: it loads only what it draws.
const landing = () => import('../features/onboarding/landing');
// Its picker of existing users loads only when an assistant opens it, and the users list's calls with it.
registerMachineLoader(['list.users'], () =>
  import('./machines/onboarding').then((m) => m.onboardingMachines),
);
const documents = withMachines(() => import('../features/onboarding/documents'), enrolmentMachines);
// The capture view's machine: beside the capture steps, and for AccreditFace when its camera first shows.
const captureMachines = () => import('./machines/capture').then((m) => m.captureMachines);
registerMachineLoader(['capture'], captureMachines);
const capture = withMachines(
  () => import('../features/onboarding/capture-screens'),
  () =>
    Promise.all([enrolmentMachines(), captureMachines()]).then(([enrolment, camera]) => ({
      ...enrolment,
      ...camera,
    })),
);
const review = withMachines(() => import('../features/onboarding/review'), enrolmentMachines);
const finish = withMachines(() => import('../features/onboarding/finish'), enrolmentMachines);
// A phone enrolling never sees DeviceDetect (nor its hand-off machine): its own chunk keeps it off that path.
const deviceDetect = withMachines(
  () => import('../features/onboarding/device-detect'),
  () =>
    Promise.all([
      import('./machines/device-handoff').then((m) => m.deviceHandoffMachines),
      enrolmentMachines(),
    ]).then(([handoff, enrolment]) => ({ ...handoff, ...enrolment })),
);
const account = withMachines(
  () => import('../features/account/screens'),
  () => import('./machines/account').then((m) => m.accountMachines),
);
const visits = withMachines(
  () => import('../features/visits/screens'),
  () => import('./machines/visits').then((m) => m.visitMachines),
);
const accreditationMachines = () => import('./machines/accreditations').then((m) => m.accreditationMachines);
const accreditations = withMachines(
  () => import('../features/accreditations/screens'),
  accreditationMachines,
);
// AccreditFace and AccreditProof capture a selfie with the enrolment's capture view: their own chunk keeps that code
// off UserHome and MyAccreditations, an enrolled person's most opened screens.
const accredit = withMachines(() => import('../features/accreditations/accredit'), accreditationMachines);
// The staff portal, a chunk per screen (src/app/portal-routes.ts): the table of its imports is a chunk of its own, not
// the entry's, which Welcome and Landing load.
const portal =
  <S extends PortalScreen>(screen: S) =>
  (): Promise<Awaited<ReturnType<PortalScreens[S]>>> =>
    import('./portal-routes').then(({ portalScreens }) =>
      (portalScreens[screen] as () => Promise<Awaited<ReturnType<PortalScreens[S]>>>)(),
    );
const publicArea = () => import('../features/public/screens');
// ResetCredentials runs a machine whose calls validate with arktype: its own chunk keeps that off Welcome.
const resetCredentials = withMachines(
  () => import('../features/public/reset-credentials'),
  () => import('./machines/public').then((m) => m.publicMachines),
);

// The first screens draw only the first part of the catalogue (src/i18n/first-screen.ts).
const FIRST = { firstScreen: true };

export const screenComponents = {
  Callback: lazyScreen(publicArea, 'Callback', FIRST),
  Silent: lazyScreen(publicArea, 'Silent', FIRST),
  VisitConfirmation: lazyScreen(visits, 'VisitConfirmation'),
  ErrorScreen: lazyScreen(publicArea, 'ErrorScreen', FIRST),
  ResetCredentials: lazyScreen(resetCredentials, 'ResetCredentials'),
  Welcome: lazyScreen(publicArea, 'Welcome', FIRST),
  Landing: lazyScreen(landing, 'Landing', FIRST),
  PrivacyOnboarding: lazyScreen(onboardingSteps, 'PrivacyOnboarding'),
  RegisterDocuments: lazyScreen(documents, 'RegisterDocuments'),
  DocumentScan: lazyScreen(capture, 'DocumentScan'),
  RegisterSelfie: lazyScreen(capture, 'RegisterSelfie'),
  TakeSelfie: lazyScreen(capture, 'TakeSelfie'),
  TakeSelfieAlive: lazyScreen(capture, 'TakeSelfieAlive'),
  ReviewRegister: lazyScreen(review, 'ReviewRegister'),
  RegisterForm: lazyScreen(review, 'RegisterForm'),
  IdentityProofingStep: lazyScreen(onboardingSteps, 'IdentityProofingStep'),
  NextSteps: lazyScreen(onboardingSteps, 'NextSteps'),
  FinishRegisterWithQr: lazyScreen(finish, 'FinishRegisterWithQr'),
  FinishRegister: lazyScreen(finish, 'FinishRegister'),
  FinishRegisterWithError: lazyScreen(finish, 'FinishRegisterWithError'),
  DeviceDetect: lazyScreen(deviceDetect, 'DeviceDetect'),
  UserHome: lazyScreen(accreditations, 'UserHome'),
  UserProfile: lazyScreen(account, 'UserProfile'),
  DeleteAccount: lazyScreen(account, 'DeleteAccount'),
  ProcessVisit: lazyScreen(visits, 'ProcessVisit'),
  VisitList: lazyScreen(visits, 'VisitList'),
  MyVisits: lazyScreen(visits, 'MyVisits'),
  NewVisit: lazyScreen(visits, 'NewVisit'),
  VisitDetail: lazyScreen(visits, 'VisitDetail'),
  MyAccreditations: lazyScreen(accreditations, 'MyAccreditations'),
  AccreditationDetail: lazyScreen(accreditations, 'AccreditationDetail'),
  AccreditFace: lazyScreen(accredit, 'AccreditFace'),
  AccreditProof: lazyScreen(accredit, 'AccreditProof'),
  PortalManagement: lazyScreen(portal('PortalManagement'), 'PortalManagement'),
  PortalAccounts: lazyScreen(portal('PortalAccounts'), 'PortalAccounts'),
  PortalUsers: lazyScreen(portal('PortalUsers'), 'PortalUsers'),
  PortalUserDetail: lazyScreen(portal('PortalUserDetail'), 'PortalUserDetail'),
  Administration: lazyScreen(portal('Administration'), 'Administration'),
  SingleRegistration: lazyScreen(portal('SingleRegistration'), 'SingleRegistration'),
  DelegatedFinishRegister: lazyScreen(portal('DelegatedFinishRegister'), 'DelegatedFinishRegister'),
  AddUsersFromPhotos: lazyScreen(portal('AddUsersFromPhotos'), 'AddUsersFromPhotos'),
  AuditAccesses: lazyScreen(portal('AuditAccesses'), 'AuditAccesses'),
  ActivateUsers: lazyScreen(portal('ActivateUsers'), 'ActivateUsers'),
  CheckInterdictions: lazyScreen(portal('CheckInterdictions'), 'CheckInterdictions'),
  AssistantAccountCancellation: lazyScreen(
    portal('AssistantAccountCancellation'),
    'AssistantAccountCancellation',
  ),
  UploadWatchlist: lazyScreen(portal('UploadWatchlist'), 'UploadWatchlist'),
  UploadWatchlistResult: lazyScreen(portal('UploadWatchlistResult'), 'UploadWatchlistResult'),
} satisfies Record<ScreenName, unknown>;
