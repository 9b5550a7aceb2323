import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { REGISTRATION_ERROR_CODE_LIST, type RegistrationErrorCode } from '../../../contract/domain/enrolment';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import type { EnrolmentActor } from '../../runtime/enrolment';
import { useSessionPresence } from '../../runtime/session-presence';
import { EnrolmentFrame, ScreenTitle } from './enrolment-frame';

// The end of an enrolment (spec §2, §8): success, success with the new QR credential (spec §1: valid 15 days),
// or the registration failure with its code. The URL follows the enrolment machine (EnrolmentFrame); the
// failure screen is public, so whoever opens it signed out still reads what the code means.

const finishMessages = defineMessages({
  title: { id: 'finish.title' },
  lead: { id: 'finish.lead' },
});

/** Spec §1, §9: a QR credential lasts 15 days. */
export const QR_VALID_DAYS = 15;

/** The {errorCode} of the path as a spec §8 code; anything else is unknown. */
export function registrationErrorCodeOf(value: string | undefined): RegistrationErrorCode {
  return REGISTRATION_ERROR_CODE_LIST.find((code) => code === value) ?? 'unknown';
}

/** Title and message of each spec §8 code (also shown by DeviceDetect when the phone's registration fails). */
export const registrationErrorMessages: Record<
  RegistrationErrorCode,
  { title: { id: string }; message: { id: string } }
> = {
  underage: defineMessages({
    title: { id: 'finishError.underage.title' },
    message: { id: 'finishError.underage.message' },
  }),
  'forbidden-list': defineMessages({
    title: { id: 'finishError.forbidden-list.title' },
    message: { id: 'finishError.forbidden-list.message' },
  }),
  'document-expired': defineMessages({
    title: { id: 'finishError.document-expired.title' },
    message: { id: 'finishError.document-expired.message' },
  }),
  'life-proofing-failed': defineMessages({
    title: { id: 'finishError.life-proofing-failed.title' },
    message: { id: 'finishError.life-proofing-failed.message' },
  }),
  'already-registered': defineMessages({
    title: { id: 'finishError.already-registered.title' },
    message: { id: 'finishError.already-registered.message' },
  }),
  'document-already-in-use': defineMessages({
    title: { id: 'finishError.document-already-in-use.title' },
    message: { id: 'finishError.document-already-in-use.message' },
  }),
  'enforcement-source-unavailable': defineMessages({
    title: { id: 'finishError.enforcement-source-unavailable.title' },
    message: { id: 'finishError.enforcement-source-unavailable.message' },
  }),
  unknown: defineMessages({
    title: { id: 'finishError.unknown.title' },
    message: { id: 'finishError.unknown.message' },
  }),
};

/**
 * Leaving is a transition (spec §4: stopping resets the onboarding state and goes home): the machine forgets
 * the onboarding here and names the person's home screen.
 */
export function leaveEnrolment(actor: EnrolmentActor): void {
  const snapshot = actor.getSnapshot();
  if (snapshot.can({ type: 'onboarding.stop' })) actor.send({ type: 'onboarding.stop' });
  else if (snapshot.can({ type: 'enrolment.finish' })) actor.send({ type: 'enrolment.finish' });
}

/** The way out for DeviceDetect (its own screen): the same transition. */
export function useLeaveEnrolment(actor: EnrolmentActor) {
  return () => leaveEnrolment(actor);
}

function FinishContinue({ actor }: { actor: EnrolmentActor }) {
  const canFinish = useSelector(actor, (s) => s.can({ type: 'enrolment.finish' }));
  return (
    <Button
      className="w-full"
      data-testid="finish-continue"
      disabled={!canFinish}
      onClick={() => actor.send({ type: 'enrolment.finish' })}
    >
      <FormattedMessage id="finish.continue" />
    </Button>
  );
}

/** FinishRegister (finish-register/{userId}): the person is enrolled. */
export function FinishRegister() {
  return (
    <EnrolmentFrame screen="FinishRegister">
      {({ actor }) => (
        <Card className="mx-auto flex w-full max-w-xl flex-col gap-6">
          <ScreenTitle titleId={finishMessages.title.id} leadId={finishMessages.lead.id} />
          <FinishContinue actor={actor} />
        </Card>
      )}
    </EnrolmentFrame>
  );
}

/** An object URL for the picture while it is shown, freed when it is not. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => {
      URL.revokeObjectURL(next);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/** The QR credential the machine fetched (enrolled.withQr: loadingQr, qrShown, qrUnavailable). */
function CredentialQr({ actor, qrId }: { actor: EnrolmentActor; qrId: string }) {
  const intl = useIntl();
  const loading = useSelector(actor, (s) => s.matches({ enrolled: { withQr: 'loadingQr' } }));
  const failed = useSelector(actor, (s) => s.matches({ enrolled: { withQr: 'qrUnavailable' } }));
  const url = useObjectUrl(useSelector(actor, (s) => s.context.qrImage));
  return (
    <section
      aria-labelledby="finish-qr-heading"
      aria-busy={loading}
      className="flex flex-col items-center gap-4 text-center"
    >
      <h2 id="finish-qr-heading" className="text-lg font-semibold">
        <FormattedMessage id="finish.qr.heading" />
      </h2>
      {loading && (
        <div className="flex size-56 items-center justify-center">
          <Spinner label={intl.formatMessage({ id: 'finish.qr.loading' })} />
        </div>
      )}
      {!loading && !failed && url && (
        <>
          <img
            src={url}
            alt={intl.formatMessage({ id: 'finish.qr.alt' })}
            width={224}
            height={224}
            className="size-56 rounded-lg border border-slate-200 bg-white p-2 [image-rendering:pixelated]"
            data-testid="finish-qr"
          />
          <a
            href={url}
            download={`qr-${qrId}.png`}
            className={buttonVariants({ variant: 'secondary', size: 'sm' })}
          >
            <FormattedMessage id="finish.qr.download" />
          </a>
        </>
      )}
      {failed && (
        <Alert className="items-center" message={intl.formatMessage({ id: 'finish.qr.failed' })}>
          <Button
            variant="secondary"
            onClick={() => actor.send({ type: 'qr.retry' })}
            data-testid="finish-qr-retry"
          >
            <FormattedMessage id="finish.qr.retry" />
          </Button>
        </Alert>
      )}
      <p className="text-sm text-slate-600">
        <FormattedMessage id="finish.qr.validity" values={{ days: QR_VALID_DAYS }} />
      </p>
    </section>
  );
}

/** FinishRegisterWithQr (finish-register/{userId}/{qrId}): enrolled, with the new QR credential. */
export function FinishRegisterWithQr() {
  const { qrId = '' } = useParams<{ userId: string; qrId: string }>();
  return (
    <EnrolmentFrame screen="FinishRegisterWithQr">
      {({ actor }) => (
        <Card className="mx-auto flex w-full max-w-xl flex-col gap-6">
          <ScreenTitle titleId={finishMessages.title.id} leadId={finishMessages.lead.id} />
          <CredentialQr actor={actor} qrId={qrId} />
          <FinishContinue actor={actor} />
        </Card>
      )}
    </EnrolmentFrame>
  );
}

/** A spec §8 code's title and message, announced. */
export function RegistrationErrorMessage({ code }: { code: RegistrationErrorCode }) {
  const messages = registrationErrorMessages[code];
  return (
    <div role="alert" className="flex flex-col gap-2" data-error-code={code}>
      <h1 className="text-2xl font-bold tracking-tight">
        <FormattedMessage {...messages.title} />
      </h1>
      <p className="text-slate-700">
        <FormattedMessage {...messages.message} />
      </p>
    </div>
  );
}

function EnrolmentError({ code, actor }: { code: RegistrationErrorCode; actor: EnrolmentActor }) {
  const intl = useIntl();
  const canRetry = useSelector(actor, (s) => s.can({ type: 'registration.retry' }));
  const retrying = useSelector(actor, (s) => s.hasTag('busy'));
  return (
    <Card className="mx-auto flex w-full max-w-xl flex-col gap-6" data-testid="finish-error">
      <RegistrationErrorMessage code={code} />
      {retrying && <Spinner label={intl.formatMessage({ id: 'finishError.retrying' })} />}
      <div className="flex flex-col gap-3">
        {code === 'enforcement-source-unavailable' && canRetry && (
          <Button
            className="w-full"
            data-testid="finish-error-retry"
            onClick={() => actor.send({ type: 'registration.retry' })}
          >
            <FormattedMessage id="finishError.retry" />
          </Button>
        )}
        <Button
          variant={code === 'enforcement-source-unavailable' ? 'secondary' : 'primary'}
          className="w-full"
          data-testid="finish-error-back"
          disabled={retrying}
          onClick={() => leaveEnrolment(actor)}
        >
          {code === 'already-registered' ? (
            <FormattedMessage id="finishError.home" />
          ) : (
            <FormattedMessage id="finishError.back" />
          )}
        </Button>
      </div>
    </Card>
  );
}

/** FinishRegisterWithError (finish-register-error/{errorCode}, public): why the registration failed. */
export function FinishRegisterWithError() {
  const intl = useIntl();
  const { errorCode } = useParams<{ errorCode: string }>();
  const code = registrationErrorCodeOf(errorCode);
  const presence = useSessionPresence();
  if (presence === 'pending') return <Spinner label={intl.formatMessage({ id: 'finishError.loading' })} />;
  if (presence === 'signedIn') {
    return (
      <EnrolmentFrame screen="FinishRegisterWithError">
        {({ actor }) => <EnrolmentError code={code} actor={actor} />}
      </EnrolmentFrame>
    );
  }
  return (
    <section data-screen="FinishRegisterWithError">
      <Card className="mx-auto flex w-full max-w-xl flex-col gap-6" data-testid="finish-error">
        <RegistrationErrorMessage code={code} />
        <Link href="/" className={buttonVariants({ className: 'w-full' })} data-testid="finish-error-back">
          <FormattedMessage id="finishError.back" />
        </Link>
      </Card>
    </section>
  );
}
