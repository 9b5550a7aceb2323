// The enrolment's effects live in src/actors/enrolment.ts; the onboarding screens (DeviceDetect among them)
// keep reaching them by this name.
export {
  type EnrolmentActor,
  type EnrolmentRuntime,
  enrolmentRuntimeOf,
  type ImageStore,
  type UploadProgress,
} from '../../actors/enrolment';
