import { useActorRef, useSelector } from '@xstate/react';
import {
  type ChangeEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { type MessageDescriptor, useIntl } from 'react-intl';
import type { ActorRefFrom, SnapshotFrom, StateValue } from 'xstate';
import type { CapturedPhoto, CaptureError, captureMachine } from '../../../../machines/capture.machine';
import { Button, buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { closeCamera } from '../../../media/camera';
import { canScoreFrames } from '../../../media/frame-score';
import { useScreenMachine } from '../../../runtime/machines';
import {
  type CapturePurpose,
  faceHints,
  instructions,
  messages,
  previewAlts,
  previewChecks,
  problemOf,
  problems,
} from './capture-messages';

/** A video that has not started playing by then did not mount (machine event capture.mountFailed). */
export const MOUNT_TIMEOUT_MS = 5000;

type CaptureMachine = typeof captureMachine;
type CaptureSnapshot = SnapshotFrom<CaptureMachine>;
type CaptureActor = ActorRefFrom<CaptureMachine>;

export interface CaptureViewProps {
  /** The rear camera for documents, the front one for selfies. */
  facing: 'environment' | 'user';
  /** What is being photographed: sets the guide (card or oval) and the texts. */
  purpose: CapturePurpose;
  /** Called once, when the person accepts the photo. */
  onPhoto: (photo: CapturedPhoto) => void;
  /** The screen is sending the accepted photo. */
  busy?: boolean;
  /** The capture machine to run; by default the real one (camera, workers). Tests provide fakes. */
  machine?: CaptureMachine;
}

/** 'camera.streaming.watching', 'rejected.imageTooSmall', 'preview'… (for tests and debugging only). */
function stateString(value: StateValue): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value)[0] ?? [];
  if (!key) return '';
  return child ? `${key}.${stateString(child)}` : key;
}

function captureErrorOf(snapshot: CaptureSnapshot): CaptureError | undefined {
  const metas = Object.values(snapshot.getMeta()) as ({ captureError?: CaptureError } | undefined)[];
  return metas.find((meta) => meta?.captureError)?.captureError;
}

/** What the view shows, read from the machine's states. */
type Phase = 'starting' | 'streaming' | 'taking' | 'checking' | 'preview' | 'done' | 'other';

function phaseOf(snapshot: CaptureSnapshot): Phase {
  if (snapshot.matches('askingPermission')) return 'starting';
  if (snapshot.matches({ camera: 'streaming' })) return 'streaming';
  if (snapshot.matches({ camera: 'taking' })) return 'taking';
  if (snapshot.matches('checking')) return 'checking';
  if (snapshot.matches('preview')) return 'preview';
  if (snapshot.matches('done')) return 'done';
  return 'other';
}

/** What the view is doing, in words, for each state that is not a problem. */
function statusMessage(phase: Phase, purpose: CapturePurpose, busy: boolean): MessageDescriptor | undefined {
  switch (phase) {
    case 'starting':
      return messages.starting;
    case 'streaming':
      return instructions[purpose];
    case 'taking':
      return messages.taking;
    case 'checking':
      return messages.checking;
    case 'preview':
      return previewChecks[purpose === 'selfie' ? 'selfie' : 'document'];
    case 'done':
      return busy ? messages.sending : messages.done;
    default:
      return undefined;
  }
}

/**
 * Taking one photo of a document side or a selfie (spec §2 DocumentScan, TakeSelfie, TakeSelfieAlive):
 * the live camera with a guide and auto-capture on sharp frames, a preview to accept or retake, each
 * failure explained (§8), and a file to choose instead wherever the machine accepts one (§5 checks apply).
 */
export function CaptureView({ facing, purpose, onPhoto, busy = false, machine }: CaptureViewProps) {
  const intl = useIntl();
  const videoRef = useRef<HTMLVideoElement>(null);
  const rootRef = useRef<HTMLElement>(null);
  const real = useScreenMachine('capture', () => videoRef.current);
  const [logic] = useState(() => machine ?? real);
  // A selfie takes itself only from frames with a face large enough (a document held up must not).
  const actor = useActorRef(logic, { input: { facing, requireFace: purpose === 'selfie' } });

  const state = useSelector(actor, (s) => stateString(s.value));
  const phase = useSelector(actor, phaseOf);
  const inCamera = useSelector(actor, (s) => s.matches('camera'));
  const captureError = useSelector(actor, captureErrorOf);
  const cameraFailure = useSelector(actor, (s) => s.context.cameraFailure);
  const stream = useSelector(actor, (s) => s.context.stream);
  const photo = useSelector(actor, (s) => s.context.photo);
  const canChooseFile = useSelector(actor, (s) => s.hasTag('acceptsFile'));
  const canRetry = useSelector(actor, (s) => s.hasTag('retryable'));
  const faceHint = useSelector(actor, faceHintOf);
  const done = phase === 'done';
  const onPicking = useCallback(
    (picking: boolean) => actor.send({ type: picking ? 'filePicker.opened' : 'filePicker.closed' }),
    [actor],
  );

  useCameraCleanup(actor);
  useVideoMount(actor, videoRef, inCamera ? stream : null);
  useDeliver(done ? photo : null, onPhoto);
  useFocusOnChange(rootRef, inCamera ? 'camera' : state);

  const text = (descriptor: MessageDescriptor) => intl.formatMessage(descriptor);
  const problem = captureError ? problemOf(captureError, cameraFailure) : undefined;
  // Said politely on every change of view; problems are alerts of their own and are not repeated here.
  const announcement = problem ? undefined : statusMessage(phase, purpose, busy);

  let body: ReactNode;
  if (problem) {
    body = (
      <div className="flex flex-col gap-3">
        <div role="alert" className="flex flex-col gap-2 rounded-2xl border border-red-200 bg-red-50 p-4">
          <h2 tabIndex={-1} data-capture-focus className="text-lg font-semibold text-red-900 outline-none">
            {text(problems[problem].title)}
          </h2>
          <p className="text-red-900">{text(problems[problem].hint)}</p>
        </div>
        {canRetry && (
          <Button
            variant="secondary"
            className="w-full"
            data-testid="capture-retry"
            onClick={() => actor.send({ type: 'capture.retry' })}
          >
            <CameraIcon />
            {text(messages.retry)}
          </Button>
        )}
      </div>
    );
  } else if (inCamera) {
    body = (
      <CameraStage
        videoRef={videoRef}
        purpose={purpose}
        taking={phase === 'taking'}
        instruction={text(instructions[purpose])}
        autoHint={
          canScoreFrames() ? text(purpose === 'selfie' ? messages.autoSelfie : messages.auto) : undefined
        }
        faceHint={faceHint && text(faceHints[faceHint])}
        cameraLabel={text(messages.cameraLabel)}
        takeLabel={text(messages.take)}
        takingLabel={text(messages.taking)}
        onTake={() => actor.send({ type: 'capture.take' })}
      />
    );
  } else if (phase === 'preview' && photo) {
    body = (
      <PhotoPreview
        photo={photo}
        alt={text(previewAlts[purpose])}
        check={text(previewChecks[purpose === 'selfie' ? 'selfie' : 'document'])}
        retakeLabel={text(messages.retake)}
        useLabel={text(messages.use)}
        onRetake={() => actor.send({ type: 'capture.retake' })}
        onUse={() => actor.send({ type: 'capture.use' })}
      />
    );
  } else if (done && !busy) {
    body = (
      <p tabIndex={-1} data-capture-focus className="rounded-2xl bg-white p-4 text-center outline-none">
        {text(messages.done)}
      </p>
    );
  } else {
    body = <Pending label={text(statusMessage(phase, purpose, busy) ?? messages.starting)} />;
  }

  return (
    <section
      ref={rootRef}
      data-slot="capture"
      data-capture-state={state}
      data-capture-error={captureError}
      data-camera-failure={captureError === 'camera_failure' ? (cameraFailure ?? 'failed') : undefined}
      className="mx-auto flex w-full max-w-xl flex-col gap-4"
    >
      <p aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement && text(announcement)}
      </p>
      {body}
      {canChooseFile && (
        <FilePicker
          facing={facing}
          prominent={Boolean(problem)}
          label={text(messages.file)}
          hint={text(messages.fileHint)}
          onPicking={onPicking}
          onFile={(file) => actor.send({ type: 'file.chosen', file })}
        />
      )}
    </section>
  );
}

/** Why a selfie is not taking itself: no face in the frame, or one too small. */
function faceHintOf(snapshot: CaptureSnapshot): 'missing' | 'tooSmall' | undefined {
  if (snapshot.hasTag('faceMissing')) return 'missing';
  if (snapshot.hasTag('faceTooSmall')) return 'tooSmall';
  return undefined;
}

function Pending({ label }: { label: string }) {
  return (
    <div className="flex min-h-48 flex-col items-center justify-center gap-3 rounded-2xl bg-white p-6 text-center">
      <Spinner label={label} />
      {/* The spinner tells assistive technology; this is the same text for the eyes. */}
      <p aria-hidden="true" className="text-slate-700">
        {label}
      </p>
    </div>
  );
}

function CameraStage(props: {
  videoRef: RefObject<HTMLVideoElement | null>;
  purpose: CapturePurpose;
  taking: boolean;
  instruction: string;
  autoHint: string | undefined;
  /** Why the selfie is not taking itself; the Take photo button works all the same. */
  faceHint: string | undefined;
  cameraLabel: string;
  takeLabel: string;
  takingLabel: string;
  onTake: () => void;
}) {
  const selfie = props.purpose === 'selfie';
  const instructionId = useId();
  return (
    <div className="flex flex-col gap-3">
      <div
        className={cn(
          'relative w-full overflow-hidden rounded-2xl bg-slate-900',
          selfie ? 'aspect-[3/4] max-h-[60svh]' : 'aspect-[4/3]',
        )}
      >
        <video
          ref={props.videoRef}
          playsInline
          muted
          autoPlay
          aria-label={props.cameraLabel}
          aria-describedby={instructionId}
          className={cn('absolute inset-0 size-full object-cover', selfie && '-scale-x-100')}
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 flex items-center justify-center"
        >
          {selfie ? (
            <div className="aspect-[3/4] h-[80%] max-w-[85%] rounded-[50%] border-4 border-white/90 shadow-[0_0_0_100vmax_rgb(15_23_42/0.5)]" />
          ) : (
            // ID-1 card proportions (85.6 × 54 mm), the shape of ID cards and driving licences.
            <div className="aspect-[1.586] w-[86%] rounded-xl border-4 border-white/90 shadow-[0_0_0_100vmax_rgb(15_23_42/0.5)]" />
          )}
        </div>
        {props.taking && (
          <div className="absolute inset-0 flex items-center justify-center bg-slate-900/40">
            <Spinner label={props.takingLabel} className="text-white" />
          </div>
        )}
      </div>
      <p id={instructionId} tabIndex={-1} data-capture-focus className="text-slate-800 outline-none">
        {props.instruction}
      </p>
      {/* Polite, so that a screen reader hears the hint come and go without being interrupted. */}
      <div role="status" aria-live="polite">
        {props.faceHint ? (
          <p data-testid="capture-face-hint" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {props.faceHint}
          </p>
        ) : (
          props.autoHint && <p className="text-sm text-slate-600">{props.autoHint}</p>
        )}
      </div>
      <Button data-testid="capture-take" className="w-full" disabled={props.taking} onClick={props.onTake}>
        <CameraIcon />
        {props.takeLabel}
      </Button>
    </div>
  );
}

function PhotoPreview(props: {
  photo: CapturedPhoto;
  alt: string;
  check: string;
  retakeLabel: string;
  useLabel: string;
  onRetake: () => void;
  onUse: () => void;
}) {
  const url = useObjectUrl(props.photo.blob);
  return (
    <div className="flex flex-col gap-3">
      {url && (
        <img
          src={url}
          alt={props.alt}
          width={props.photo.width}
          height={props.photo.height}
          className="h-auto max-h-[60svh] w-full rounded-2xl bg-slate-100 object-contain"
        />
      )}
      <p tabIndex={-1} data-capture-focus className="text-slate-800 outline-none">
        {props.check}
      </p>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Button data-testid="capture-use" onClick={props.onUse}>
          {props.useLabel}
        </Button>
        <Button
          data-testid="capture-retake"
          variant="secondary"
          className="sm:order-first"
          onClick={props.onRetake}
        >
          {props.retakeLabel}
        </Button>
      </div>
    </div>
  );
}

/**
 * The file fallback: a real file input (kept in the DOM, visually hidden, so it stays keyboard focusable
 * and Playwright can set files on it) shown as a button through its label.
 */
function FilePicker(props: {
  facing: 'environment' | 'user';
  prominent: boolean;
  label: string;
  hint: string;
  onPicking: (picking: boolean) => void;
  onFile: (file: File) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const { onPicking } = props;

  // While the file dialog is open, auto-capture must not take a photo behind it (and drop the choice).
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const stop = () => onPicking(false);
    const back = () => setTimeout(stop, 1000); // 'change' comes after focus returns; 'cancel' may not come
    input.addEventListener('cancel', stop);
    window.addEventListener('focus', back);
    return () => {
      input.removeEventListener('cancel', stop);
      window.removeEventListener('focus', back);
      onPicking(false);
    };
  }, [onPicking]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = ''; // the same file may be chosen again after an error
    onPicking(false);
    if (file) props.onFile(file);
  };

  return (
    <div className="flex flex-col gap-1.5">
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept="image/jpeg,image/png"
        capture={props.facing === 'user' ? 'user' : 'environment'}
        aria-describedby={`${id}-hint`}
        data-testid="capture-file"
        className="peer sr-only"
        onClick={() => onPicking(true)}
        onChange={choose}
      />
      <label
        htmlFor={id}
        className={cn(
          buttonVariants({ variant: props.prominent ? 'primary' : 'secondary' }),
          'w-full cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand peer-focus-visible:ring-offset-2',
        )}
      >
        <UploadIcon />
        {props.label}
      </label>
      <p id={`${id}-hint`} className="text-center text-sm text-slate-600">
        {props.hint}
      </p>
    </div>
  );
}

/** An object URL for a blob, revoked when the blob changes or the view goes away. */
function useObjectUrl(blob: Blob): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
}

/**
 * Stopping the actor does not run the machine's exit actions, so the camera would stay on when the view
 * goes away. The check waits a tick: React's strict mode unmounts and remounts at once, keeping the actor.
 */
function useCameraCleanup(actor: CaptureActor) {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      setTimeout(() => {
        if (!mounted.current) closeCamera(actor.getSnapshot().context.stream ?? undefined);
      }, 0);
    };
  }, [actor]);
}

/** Binds the stream to the video; a video that errors or does not play in time did not mount. */
function useVideoMount(
  actor: CaptureActor,
  videoRef: RefObject<HTMLVideoElement | null>,
  stream: MediaStream | null,
) {
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !stream) return;
    let settled = false;
    const fail = () => {
      if (settled) return;
      settled = true;
      actor.send({ type: 'capture.mountFailed' });
    };
    const playing = () => {
      settled = true;
      clearTimeout(timer);
    };
    const timer = setTimeout(fail, MOUNT_TIMEOUT_MS);
    video.addEventListener('playing', playing);
    video.addEventListener('error', fail);
    // A camera unplugged or taken by another app while showing ends its track.
    const tracks = stream.getVideoTracks?.() ?? [];
    for (const track of tracks) track.addEventListener('ended', fail);
    video.srcObject = stream;
    Promise.resolve(video.play?.()).catch((error: unknown) => {
      // AbortError: the video was taken away or given another source meanwhile, not a failure.
      if ((error as { name?: string } | null)?.name !== 'AbortError') fail();
    });
    return () => {
      settled = true;
      clearTimeout(timer);
      video.removeEventListener('playing', playing);
      video.removeEventListener('error', fail);
      for (const track of tracks) track.removeEventListener('ended', fail);
      video.srcObject = null;
    };
  }, [actor, videoRef, stream]);
}

/** Hands the accepted photo over once, however often React runs the effect. */
function useDeliver(photo: CapturedPhoto | null, onPhoto: (photo: CapturedPhoto) => void) {
  const delivered = useRef<CapturedPhoto | null>(null);
  const latest = useRef(onPhoto);
  useEffect(() => {
    latest.current = onPhoto;
  });
  useEffect(() => {
    if (photo && delivered.current !== photo) {
      delivered.current = photo;
      latest.current(photo);
    }
  }, [photo]);
}

/** When the content changes under a focused control (which then disappears), focus the new content. */
function useFocusOnChange(rootRef: RefObject<HTMLElement | null>, key: string) {
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on purpose whenever the view changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body) return;
    rootRef.current?.querySelector<HTMLElement>('[data-capture-focus]')?.focus();
  }, [rootRef, key]);
}

const iconProps = {
  width: 24,
  height: 24,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

const CameraIcon = () => (
  <svg {...iconProps} aria-hidden="true">
    <path d="M14.5 4h-5L7 7H4a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V9a2 2 0 0 0-2-2h-3z" />
    <circle cx="12" cy="13" r="3" />
  </svg>
);

const UploadIcon = () => (
  <svg {...iconProps} aria-hidden="true">
    <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12" />
  </svg>
);
