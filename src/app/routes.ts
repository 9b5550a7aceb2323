import type { ScreenName } from '../domain/screens';
import { lazyScreen } from './lazy-screen';

// The lazy component of every screen of src/domain/screens.ts: one chunk per area, loaded on first use.
// Only src/app imports the features.
const onboarding = () => import('../features/onboarding/screens');
// A phone enrolling never sees DeviceDetect (nor its hand-off machine): its own chunk keeps it off that path.
const deviceDetect = () => import('../features/onboarding/device-detect');
const account = () => import('../features/account/screens');
const visits = () => import('../features/visits/screens');
const accreditations = () => import('../features/accreditations/screens');
const portal = () => import('../features/portal/screens');
const publicArea = () => import('../features/public/screens');

export const screenComponents = {
  Callback: lazyScreen(publicArea, 'Callback'),
  Silent: lazyScreen(publicArea, 'Silent'),
  VisitConfirmation: lazyScreen(visits, 'VisitConfirmation'),
  ErrorScreen: lazyScreen(publicArea, 'ErrorScreen'),
  ResetCredentials: lazyScreen(publicArea, 'ResetCredentials'),
  Welcome: lazyScreen(publicArea, 'Welcome'),
  Landing: lazyScreen(onboarding, 'Landing'),
  PrivacyOnboarding: lazyScreen(onboarding, 'PrivacyOnboarding'),
  RegisterDocuments: lazyScreen(onboarding, 'RegisterDocuments'),
  DocumentScan: lazyScreen(onboarding, 'DocumentScan'),
  RegisterSelfie: lazyScreen(onboarding, 'RegisterSelfie'),
  TakeSelfie: lazyScreen(onboarding, 'TakeSelfie'),
  TakeSelfieAlive: lazyScreen(onboarding, 'TakeSelfieAlive'),
  ReviewRegister: lazyScreen(onboarding, 'ReviewRegister'),
  RegisterForm: lazyScreen(onboarding, 'RegisterForm'),
  IdentityProofingStep: lazyScreen(onboarding, 'IdentityProofingStep'),
  NextSteps: lazyScreen(onboarding, 'NextSteps'),
  FinishRegisterWithQr: lazyScreen(onboarding, 'FinishRegisterWithQr'),
  FinishRegister: lazyScreen(onboarding, 'FinishRegister'),
  FinishRegisterWithError: lazyScreen(onboarding, 'FinishRegisterWithError'),
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
  AccreditFace: lazyScreen(accreditations, 'AccreditFace'),
  AccreditProof: lazyScreen(accreditations, 'AccreditProof'),
  PortalManagement: lazyScreen(portal, 'PortalManagement'),
  PortalAccounts: lazyScreen(portal, 'PortalAccounts'),
  PortalUsers: lazyScreen(portal, 'PortalUsers'),
  PortalUserDetail: lazyScreen(portal, 'PortalUserDetail'),
  Administration: lazyScreen(portal, 'Administration'),
  SingleRegistration: lazyScreen(portal, 'SingleRegistration'),
  DelegatedFinishRegister: lazyScreen(portal, 'DelegatedFinishRegister'),
  AuditAccesses: lazyScreen(portal, 'AuditAccesses'),
  ActivateUsers: lazyScreen(portal, 'ActivateUsers'),
  CheckInterdictions: lazyScreen(portal, 'CheckInterdictions'),
  AssistantAccountCancellation: lazyScreen(portal, 'AssistantAccountCancellation'),
  UploadWatchlist: lazyScreen(portal, 'UploadWatchlist'),
  UploadWatchlistResult: lazyScreen(portal, 'UploadWatchlistResult'),
} satisfies Record<ScreenName, unknown>;
