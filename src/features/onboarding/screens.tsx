import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { useTenant } from '../../app/runtime-context';
import { ScreenPending } from '../../components/screen-pending';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import landingImage from './landing.svg';

/** Landing (spec §2): image, title, description and a Start button that begins enrolment. */
export function Landing() {
  const { settings } = useTenant();
  const image = settings.customImages.landing
    ? `${settings.assetsUrl}/${settings.customImages.landing}`
    : landingImage;
  return (
    <Card className="mx-auto flex max-w-xl flex-col items-center text-center" data-screen="Landing">
      <img src={image} alt="" width={240} height={160} className="h-40 w-auto" />
      <h1 className="mt-6 text-2xl font-bold">
        <FormattedMessage id="landing.title" />
      </h1>
      <p className="mt-3 text-slate-700">
        <FormattedMessage id="landing.description" />
      </p>
      <Link href="/privacy-onboarding" className={buttonVariants({ className: 'mt-8 w-full' })}>
        <FormattedMessage id="landing.start" />
      </Link>
    </Card>
  );
}

export const PrivacyOnboarding = () => <ScreenPending screen="PrivacyOnboarding" />;
export const RegisterDocuments = () => <ScreenPending screen="RegisterDocuments" />;
export const DocumentScan = () => <ScreenPending screen="DocumentScan" />;
export const RegisterSelfie = () => <ScreenPending screen="RegisterSelfie" />;
export const TakeSelfie = () => <ScreenPending screen="TakeSelfie" />;
export const TakeSelfieAlive = () => <ScreenPending screen="TakeSelfieAlive" />;
export const ReviewRegister = () => <ScreenPending screen="ReviewRegister" />;
export const RegisterForm = () => <ScreenPending screen="RegisterForm" />;
export const IdentityProofingStep = () => <ScreenPending screen="IdentityProofingStep" />;
export const NextSteps = () => <ScreenPending screen="NextSteps" />;
export const FinishRegister = () => <ScreenPending screen="FinishRegister" />;
export const FinishRegisterWithQr = () => <ScreenPending screen="FinishRegisterWithQr" />;
export const FinishRegisterWithError = () => <ScreenPending screen="FinishRegisterWithError" />;
export const DeviceDetect = () => <ScreenPending screen="DeviceDetect" />;
