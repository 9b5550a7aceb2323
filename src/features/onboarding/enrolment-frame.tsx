import { useSelector } from '@xstate/react';
import { type ReactNode, useMemo, useSyncExternalStore } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { enrolmentMachine } from '../../../machines/enrolment.machine';
import type { imageUploadMachine } from '../../../machines/image-upload.machine';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { checkBrowser, parseUserAgent } from '../../domain/browser-check';
import { useRuntime, useTenant } from '../../runtime/context';
import type { EnrolmentActor, EnrolmentRuntime } from '../../runtime/enrolment';
import { useScreenMachine } from '../../runtime/machines';
import { screenMeta, useScreenMirror } from '../../runtime/screen-mirror';

export type EnrolmentSnapshot = SnapshotFrom<typeof enrolmentMachine>;
export type ImageUploadActor = ActorRefFrom<typeof imageUploadMachine>;
export type ImageUploadSnapshot = SnapshotFrom<typeof imageUploadMachine>;

/** The enrolment runtime and actor of whoever is signed in (undefined while signed out). */
export function useEnrolment(): { enrolment: EnrolmentRuntime; actor: EnrolmentActor | undefined } {
  const runtime = useRuntime();
  const enrolment = useScreenMachine('enrolment');
  const userId = useSelector(runtime.session, (s) => s.context.session?.userId ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new actor for each signed-in person.
  const actor = useMemo(() => enrolment.actor(), [enrolment, userId]);
  return { enrolment, actor };
}

/** The meta of the screen the enrolment is on (screen, side, error codes). */
export const metaOf = (snapshot: EnrolmentSnapshot): Record<string, string> => screenMeta(snapshot) ?? {};

/** The upload of the picture the capture step is at (machines/image-upload.machine.ts), if one runs. */
export const imageUploadOf = (snapshot: EnrolmentSnapshot): ImageUploadActor | undefined =>
  snapshot.children.imageUpload as ImageUploadActor | undefined;

/** What the upload's active state says of itself (errorCode, uploadError, challengeError). */
export function uploadMetaOf(snapshot: ImageUploadSnapshot): Record<string, string> {
  return Object.assign({}, ...Object.values(snapshot.getMeta())) as Record<string, string>;
}

/** Route params of the screens the machine names (finish screens carry ids and codes in their path). */
export function paramsOf(snapshot: EnrolmentSnapshot): Record<string, string | undefined> {
  const registration = snapshot.context.registration;
  return {
    userId: registration?.userId ?? undefined,
    qrId: registration?.qrSid ?? undefined,
    errorCode: metaOf(snapshot).errorCode,
  };
}

/** Spec §2, §5: what DeviceDetect tells of this device (the enrolment machine hears it as device.checked). */
export function useDeviceVerdict() {
  const { browsers } = useTenant();
  return useMemo(
    () => checkBrowser(parseUserAgent(navigator.userAgent, navigator.maxTouchPoints), browsers),
    [browsers],
  );
}

/** Upload progress of the picture being sent (0–1), null when nothing is uploading. */
export function useUploadProgress(enrolment: EnrolmentRuntime): number | null {
  return useSyncExternalStore(enrolment.progress.subscribe, enrolment.progress.get);
}

/**
 * Every enrolment screen: follows the machine (the URL mirrors its state, so a typed URL or a reload lands
 * on the step the person is really at; on a computer the machine names DeviceDetect, spec §2).
 */
export function EnrolmentFrame({
  screen,
  children,
}: {
  screen: string;
  /** No longer read: the enrolment machine decides where a computer goes (device.checked). */
  deviceChecked?: boolean;
  children: (props: {
    actor: EnrolmentActor;
    snapshot: EnrolmentSnapshot;
    enrolment: EnrolmentRuntime;
  }) => ReactNode;
}) {
  const intl = useIntl();
  const { enrolment, actor } = useEnrolment();
  if (!actor) return <Spinner label={intl.formatMessage({ id: 'common.loading' })} />;
  return (
    <Mirrored actor={actor} screen={screen}>
      {(snapshot) => children({ actor, snapshot, enrolment })}
    </Mirrored>
  );
}

function Mirrored({
  actor,
  screen,
  children,
}: {
  actor: EnrolmentActor;
  screen: string;
  children: (snapshot: EnrolmentSnapshot) => ReactNode;
}) {
  useScreenMirror(actor, paramsOf);
  const snapshot = useSelector(actor, (s) => s);
  return (
    <section data-screen={screen} data-state={JSON.stringify(snapshot.value)} className="flex flex-col gap-6">
      {children(snapshot)}
    </section>
  );
}

/** The way out of an enrolment in progress: cancelling deletes the onboarding (spec §4). */
export function CancelEnrolment({ actor }: { actor: EnrolmentActor }) {
  const intl = useIntl();
  const canCancel = useSelector(actor, (s) => s.can({ type: 'onboarding.cancel' }));
  if (!canCancel) return null;
  return (
    <Button
      variant="ghost"
      className="self-center"
      data-testid="enrolment-cancel"
      onClick={() => {
        if (window.confirm(intl.formatMessage({ id: 'enrolment.cancel.confirm' }))) {
          actor.send({ type: 'onboarding.cancel' });
        }
      }}
    >
      <FormattedMessage id="enrolment.cancel" />
    </Button>
  );
}

/** A screen's title and lead text. */
export function ScreenTitle({ titleId, leadId }: { titleId: string; leadId?: string }) {
  return (
    <header className="flex flex-col gap-2">
      <h1 className="text-2xl font-bold tracking-tight">
        <FormattedMessage id={titleId} />
      </h1>
      {leadId && (
        <p className="text-slate-700">
          <FormattedMessage id={leadId} />
        </p>
      )}
    </header>
  );
}
