// The onboarding area (one lazy chunk): every screen of the enrolment flow, by its spec name. The screens
// live beside this file, grouped by step; routes.ts loads them from here (DeviceDetect has a chunk of its own).
export { DocumentScan, RegisterSelfie, TakeSelfie, TakeSelfieAlive } from './capture-screens';
export { RegisterDocuments } from './documents';
export { FinishRegister, FinishRegisterWithError, FinishRegisterWithQr } from './finish';
export { RegisterForm, ReviewRegister } from './review';
export { IdentityProofingStep, Landing, NextSteps, PrivacyOnboarding } from './steps';
