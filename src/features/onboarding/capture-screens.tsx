import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CapturedPhoto } from '../../../machines/capture.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { errorText } from '../../i18n/error-text';
import type { EnrolmentActor, EnrolmentRuntime } from '../../runtime/enrolment';
import { CaptureView } from './capture/capture-view';
import {
  CancelEnrolment,
  EnrolmentFrame,
  type ImageUploadActor,
  imageUploadOf,
  metaOf,
  ScreenTitle,
  uploadMetaOf,
  useUploadProgress,
} from './enrolment-frame';

/** The picture is on its way: a progress bar while it uploads. */
function Uploading({ enrolment }: { enrolment: EnrolmentRuntime }) {
  const intl = useIntl();
  const progress = useUploadProgress(enrolment);
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <div className="flex flex-col gap-2" data-testid="upload-progress">
      <p>
        <FormattedMessage id="upload.inProgress" />
      </p>
      <progress
        className="h-2 w-full accent-brand"
        max={100}
        value={progress === null ? undefined : percent}
        aria-label={intl.formatMessage({ id: 'upload.inProgress' })}
      />
    </div>
  );
}

/** The server is busy with other pictures (429): the same one goes again by itself after its Retry-After. */
function BusyRetrying({ actor, upload }: { actor: EnrolmentActor; upload: ImageUploadActor }) {
  const seconds = useSelector(upload, (s) => Math.ceil(s.context.retryAfterMs / 1000));
  return (
    <Card role="status" className="flex flex-col gap-3" data-testid="upload-busy">
      <p className="font-medium">
        <FormattedMessage id="upload.busy" values={{ seconds }} />
      </p>
      <Spinner label={seconds > 0 ? `${seconds} s` : ''} />
      <Button variant="secondary" onClick={() => actor.send({ type: 'upload.retry' })}>
        <FormattedMessage id="upload.sendNow" />
      </Button>
    </Card>
  );
}

/** The picture's upload has not started yet (the step is being entered). */
function Waiting() {
  const intl = useIntl();
  return <Spinner label={intl.formatMessage({ id: 'common.loading' })} />;
}

/**
 * The server refused the picture itself (machines/image-upload imageRefused): the words of its code
 * (image_too_many_pixels, image_unreadable…, not a failed upload: sending it again would not help) and the
 * camera to take another.
 */
export function ImageRefused({ upload }: { upload: ImageUploadActor }) {
  const intl = useIntl();
  const refusal = useSelector(upload, (s) => s.context.refusal ?? null);
  return (
    <Alert
      tone="warning"
      message={errorText(intl, refusal)}
      data-testid="image-refused"
      data-code={refusal ?? undefined}
    >
      <p className="text-sm">
        <FormattedMessage id="upload.refusedHint" />
      </p>
    </Alert>
  );
}

/**
 * What a capture step shows, from its image upload machine: the upload, a failed upload (re-send the same
 * picture or take another), a picture no longer available or refused by the server (take another), or the camera.
 */
function CaptureStep({
  actor,
  upload,
  portrayalId,
  enrolment,
  facing,
  purpose,
}: {
  actor: EnrolmentActor;
  upload: ImageUploadActor;
  portrayalId: string | null;
  enrolment: EnrolmentRuntime;
  facing: 'environment' | 'user';
  purpose: 'obverse' | 'reverse' | 'selfie';
}) {
  const [retaking, setRetaking] = useState(false);
  const busy = useSelector(upload, (s) => s.hasTag('busy'));
  const uploadError = useSelector(upload, (s) => uploadMetaOf(s).uploadError);
  const intl = useIntl();
  const send = (photo: CapturedPhoto) => {
    setRetaking(false);
    actor.send({ type: 'image.captured', image: enrolment.keep(photo.blob) });
  };
  if (uploadError === 'busy') return <BusyRetrying actor={actor} upload={upload} />;
  if (busy) return <Uploading enrolment={enrolment} />;
  if (uploadError === 'upload_failed' && !retaking) {
    return (
      <Card role="alert" className="flex flex-col gap-4" data-testid="upload-failed">
        <p className="font-medium">
          <FormattedMessage id="upload.failed" />
        </p>
        <Button onClick={() => actor.send({ type: 'upload.retry' })} data-testid="upload-retry">
          <FormattedMessage id="upload.retry" />
        </Button>
        <Button variant="secondary" onClick={() => setRetaking(true)}>
          <FormattedMessage id="upload.takeAnother" />
        </Button>
      </Card>
    );
  }
  return (
    <>
      {uploadError === 'image_not_available' && (
        <Alert tone="warning" message={intl.formatMessage({ id: 'upload.imageNotAvailable' })} />
      )}
      {uploadError === 'image_refused' && <ImageRefused upload={upload} />}
      <CaptureView key={`${purpose}-${portrayalId}`} facing={facing} purpose={purpose} onPhoto={send} />
    </>
  );
}

/**
 * A scan the engine could not use (spec §8 scan failure screens): what happened and how to do better. A result that
 * did not come in time (undefined) is asked for again first: the pictures are on the server already.
 */
function ScanFailure({ actor, scanError }: { actor: EnrolmentActor; scanError: string }) {
  const late = scanError === 'undefined';
  return (
    <Card role="alert" className="flex flex-col gap-3" data-testid="scan-failure" data-scan-error={scanError}>
      <h2 className="text-xl font-semibold">
        <FormattedMessage id={`scanFailure.${scanError}.title`} />
      </h2>
      <p className="text-slate-700">
        <FormattedMessage id={`scanFailure.${scanError}.hint`} />
      </p>
      {late && (
        <Button onClick={() => actor.send({ type: 'result.retry' })} data-testid="result-retry">
          <FormattedMessage id="scanFailure.checkAgain" />
        </Button>
      )}
      <Button
        variant={late ? 'secondary' : 'primary'}
        onClick={() => actor.send({ type: 'scan.retry' })}
        data-testid="scan-retry"
      >
        <FormattedMessage id={late ? 'scanFailure.retakePictures' : 'scanFailure.retry'} />
      </Button>
    </Card>
  );
}

/** DocumentScan (spec §2): the obverse, then the reverse where the document has one. */
export function DocumentScan() {
  return (
    <EnrolmentFrame screen="DocumentScan">
      {({ actor, snapshot, enrolment }) => {
        const meta = metaOf(snapshot);
        if (meta.scanError) {
          return (
            <>
              <ScreenTitle titleId="documentScan.title" />
              <ScanFailure actor={actor} scanError={meta.scanError} />
              <CancelEnrolment actor={actor} />
            </>
          );
        }
        const side = meta.side === 'reverse' ? 'reverse' : 'obverse';
        const upload = imageUploadOf(snapshot);
        return (
          <>
            <ScreenTitle titleId={`documentScan.${side}.title`} leadId={`documentScan.${side}.lead`} />
            {upload ? (
              <CaptureStep
                key={upload.id + side}
                actor={actor}
                upload={upload}
                portrayalId={snapshot.context.identityPortrayalId}
                enrolment={enrolment}
                facing="environment"
                purpose={side}
              />
            ) : (
              <Waiting />
            )}
            <CancelEnrolment actor={actor} />
          </>
        );
      }}
    </EnrolmentFrame>
  );
}

/** RegisterSelfie (spec §2): what the selfie is for, then the camera. */
export function RegisterSelfie() {
  return (
    <EnrolmentFrame screen="RegisterSelfie">
      {({ actor, snapshot }) => (
        <>
          <ScreenTitle titleId="registerSelfie.title" leadId="registerSelfie.lead" />
          <ul className="flex list-disc flex-col gap-1 pl-6 text-slate-700">
            <li>
              <FormattedMessage id="registerSelfie.tip.light" />
            </li>
            <li>
              <FormattedMessage id="registerSelfie.tip.face" />
            </li>
            <li>
              <FormattedMessage id="registerSelfie.tip.alone" />
            </li>
          </ul>
          <Button
            loading={snapshot.hasTag('busy')}
            onClick={() => actor.send({ type: 'selfie.start' })}
            data-testid="selfie-start"
          >
            <FormattedMessage id="registerSelfie.start" />
          </Button>
          <CancelEnrolment actor={actor} />
        </>
      )}
    </EnrolmentFrame>
  );
}

/** A selfie the engine could not use (no face, several faces, another person than the document's): retake. */
function SelfieFailure({ actor, selfieError }: { actor: EnrolmentActor; selfieError: string }) {
  return (
    <Card
      role="alert"
      className="flex flex-col gap-3"
      data-testid="selfie-failure"
      data-selfie-error={selfieError}
    >
      <h2 className="text-xl font-semibold">
        <FormattedMessage id={`selfieFailure.${selfieError}.title`} />
      </h2>
      <p className="text-slate-700">
        <FormattedMessage id={`selfieFailure.${selfieError}.hint`} />
      </p>
      <Button onClick={() => actor.send({ type: 'selfie.retry' })} data-testid="selfie-retry">
        <FormattedMessage id="selfieFailure.retry" />
      </Button>
    </Card>
  );
}

/** TakeSelfie (spec §2): the front camera. */
export function TakeSelfie() {
  return (
    <EnrolmentFrame screen="TakeSelfie">
      {({ actor, snapshot, enrolment }) => {
        const meta = metaOf(snapshot);
        if (meta.selfieError) {
          return (
            <>
              <ScreenTitle titleId="takeSelfie.title" />
              <SelfieFailure actor={actor} selfieError={meta.selfieError} />
              <CancelEnrolment actor={actor} />
            </>
          );
        }
        const upload = imageUploadOf(snapshot);
        return (
          <>
            <ScreenTitle titleId="takeSelfie.title" leadId="takeSelfie.lead" />
            {upload ? (
              <CaptureStep
                actor={actor}
                upload={upload}
                portrayalId={snapshot.context.identityPortrayalId}
                enrolment={enrolment}
                facing="user"
                purpose="selfie"
              />
            ) : (
              <Waiting />
            )}
            <CancelEnrolment actor={actor} />
          </>
        );
      }}
    </EnrolmentFrame>
  );
}

/**
 * TakeSelfieAlive (spec §2, §7 challenges): the person does what the challenge asks, one picture per action;
 * the pictures together are the liveness proof (multipart lifeproof).
 */
export function TakeSelfieAlive() {
  return (
    <EnrolmentFrame screen="TakeSelfieAlive">
      {({ actor, snapshot, enrolment }) => {
        const upload = imageUploadOf(snapshot);
        if (!upload) {
          return (
            <>
              <ScreenTitle titleId="takeSelfieAlive.title" />
              <Waiting />
            </>
          );
        }
        return <LivenessProof actor={actor} upload={upload} enrolment={enrolment} />;
      }}
    </EnrolmentFrame>
  );
}

function LivenessProof({
  actor,
  upload,
  enrolment,
}: {
  actor: EnrolmentActor;
  upload: ImageUploadActor;
  enrolment: EnrolmentRuntime;
}) {
  const intl = useIntl();
  const [frames, setFrames] = useState<Blob[]>([]);
  const meta = useSelector(upload, (s) => uploadMetaOf(s), shallowEqual);
  const busy = useSelector(upload, (s) => s.hasTag('busy'));
  const challenge = useSelector(upload, (s) => s.context.challenge);
  if (meta.challengeError) {
    return (
      <>
        <ScreenTitle titleId="takeSelfieAlive.title" />
        <Alert message={intl.formatMessage({ id: 'takeSelfieAlive.challengeFailed' })}>
          <Button onClick={() => actor.send({ type: 'challenge.retry' })}>
            <FormattedMessage id="enrolment.retry" />
          </Button>
        </Alert>
        <CancelEnrolment actor={actor} />
      </>
    );
  }
  if (meta.uploadError === 'busy') {
    return (
      <>
        <ScreenTitle titleId="takeSelfieAlive.title" />
        <BusyRetrying actor={actor} upload={upload} />
      </>
    );
  }
  if (!challenge || (busy && !meta.uploadError)) {
    return (
      <>
        <ScreenTitle titleId="takeSelfieAlive.title" />
        {busy && challenge ? <Uploading enrolment={enrolment} /> : <Waiting />}
      </>
    );
  }
  const action = challenge.actions[frames.length];
  const onPhoto = (photo: CapturedPhoto) => {
    const next = [...frames, photo.blob];
    if (next.length < challenge.actions.length) {
      setFrames(next);
      return;
    }
    setFrames([]);
    actor.send({ type: 'image.captured', image: enrolment.keep(next) });
  };
  if (meta.uploadError === 'upload_failed') {
    return (
      <>
        <ScreenTitle titleId="takeSelfieAlive.title" />
        <Alert message={intl.formatMessage({ id: 'upload.failed' })}>
          <Button onClick={() => actor.send({ type: 'upload.retry' })}>
            <FormattedMessage id="upload.retry" />
          </Button>
        </Alert>
      </>
    );
  }
  return (
    <>
      <ScreenTitle titleId="takeSelfieAlive.title" leadId="takeSelfieAlive.lead" />
      {meta.uploadError === 'image_refused' && <ImageRefused upload={upload} />}
      <ol className="flex flex-col gap-1" aria-label={intl.formatMessage({ id: 'takeSelfieAlive.actions' })}>
        {challenge.actions.map((name, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the steps never reorder and an action may repeat.
            key={`${name}-${index}`}
            aria-current={index === frames.length ? 'step' : undefined}
            className={index === frames.length ? 'font-semibold text-brand' : 'text-slate-600'}
          >
            {intl.formatMessage({ id: `takeSelfieAlive.action.${name}`, defaultMessage: name })}
          </li>
        ))}
      </ol>
      {action && (
        <CaptureView key={`alive-${frames.length}`} facing="user" purpose="selfie" onPhoto={onPhoto} />
      )}
      <CancelEnrolment actor={actor} />
    </>
  );
}

/** Two metas with the same keys and values. */
function shallowEqual(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
