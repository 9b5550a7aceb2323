import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { formatDateTime } from '../../../contract/domain/dates';
import type { accreditationMachine } from '../../../machines/accreditation.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Spinner } from '../../components/ui/spinner';
import type { AccreditationKind, AccreditationStatus } from '../../domain/accreditations';
import { useRuntime } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { usePaintedPicture } from '../../runtime/painted-pictures';

export type AccreditationActor = ActorRefFrom<typeof accreditationMachine>;
export type AccreditationSnapshot = SnapshotFrom<typeof accreditationMachine>;

/** The signed-in person's account id (the server finds their user record by it), or null signed out. */
export function useAccountId(): string | null {
  const { session } = useRuntime();
  return useSelector(session, (s) => s.context.session?.userId ?? null);
}

/**
 * The person's screens need their account id, which the session gives a moment after the screen mounts: until
 * then the gate says "Loading…" in the person's language, then renders the screen for that account.
 */
export function AccountGate({ children }: { children: (accountId: string) => ReactNode }) {
  const accountId = useAccountId();
  const intl = useIntl();
  if (!accountId) return <Spinner label={intl.formatMessage({ id: 'common.loading' })} />;
  return children(accountId);
}

/**
 * An accreditation machine for this screen: the person's current QR (sid null) or one credential; `holder` when the
 * screen knows the holder's name already.
 */
export function useAccreditation(
  userId: string,
  sid: string | null,
  holder: string | null = null,
): AccreditationActor {
  const runtime = useRuntime();
  const logic = useScreenMachine('accreditation');
  return useActorRef(logic, {
    input: { userId, sid, holder },
    ...(runtime.inspect ? { inspect: runtime.inspect } : {}),
  });
}

/** What the accreditation machine shows, in one word for the screens. */
export type AccreditationView =
  | 'loading'
  | 'active'
  | 'confirmingRevoke'
  | 'expired'
  | 'revoked'
  | 'notFound'
  | 'failed';

export function viewOf(snapshot: AccreditationSnapshot): AccreditationView {
  if (snapshot.matches('confirmingRevoke')) return 'confirmingRevoke';
  if (snapshot.matches('active')) return 'active';
  if (snapshot.matches('expired')) return 'expired';
  if (snapshot.matches('revoked')) return 'revoked';
  if (snapshot.matches('notFound')) return 'notFound';
  if (snapshot.hasTag('error')) return 'failed';
  return 'loading';
}

/** The error code of the state the machine is in (meta.errorCode), if any. */
export function errorCodeOf(snapshot: AccreditationSnapshot): string | undefined {
  for (const meta of Object.values(snapshot.getMeta()) as ({ errorCode?: string } | undefined)[]) {
    if (meta?.errorCode) return meta.errorCode;
  }
  return undefined;
}

/** An object URL for a picture while it is shown, freed when it is not. */
export function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(usePaintedPicture(blob));
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

type WakeLockSentinelLike = { release(): Promise<void> };
type WakeLockLike = { request(type: 'screen'): Promise<WakeLockSentinelLike> };

/** Keeps the screen awake while the QR is shown, where the browser allows it (Screen Wake Lock API). */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    const wakeLock = (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock;
    if (!active || !wakeLock) return;
    let sentinel: WakeLockSentinelLike | null = null;
    let stopped = false;
    const acquire = () => {
      if (document.visibilityState !== 'visible') return;
      wakeLock
        .request('screen')
        .then((lock) => {
          if (stopped) void lock.release();
          else sentinel = lock;
        })
        // Refused (battery saver, no user gesture yet): the QR is still shown.
        .catch(() => {});
    };
    // The browser drops the lock when the page is hidden: take it again when it comes back.
    document.addEventListener('visibilitychange', acquire);
    acquire();
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', acquire);
      void sentinel?.release().catch(() => {});
    };
  }, [active]);
}

/** The QR image, large and black on white so that a door reader or a guard reads it at a glance. */
export function QrImage({ image, holder }: { image: Blob | null; holder: string | null }) {
  const intl = useIntl();
  const url = useObjectUrl(image);
  // The picture comes after the credential: its square is kept until then, so nothing below it moves.
  if (!url) return <QrPlaceholder />;
  return (
    <img
      src={url}
      alt={intl.formatMessage({ id: 'accreditation.qr.alt' }, { name: holder ?? '' })}
      width={288}
      height={288}
      className={cn(QR_BOX, 'border-black bg-white p-2 [image-rendering:pixelated]')}
      data-testid="accreditation-qr"
    />
  );
}

const QR_BOX = 'mx-auto aspect-square w-full max-w-72 rounded-xl border-4';

/** The QR's square before its picture is here (and, given children, what is shown in it meanwhile). */
export function QrPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <div className={cn(QR_BOX, 'flex items-center justify-center border-slate-200 bg-slate-50')}>
      {children}
    </div>
  );
}

/** DD/MM/YYYY HH:mm of an ISO instant (spec §9), in the device's time. */
export const displayDateTime = (iso: string) => formatDateTime(new Date(iso));

const WINDOW_MESSAGES: Record<'current' | 'expired', MessageDescriptor> = defineMessages({
  current: { id: 'accreditation.window' },
  expired: { id: 'accreditation.windowExpired' },
});

/** "Valid from … until …" of a QR accreditation; "since …" for the others. */
export function ValidityWindow({
  startsAt,
  endsAt,
  status,
  className,
}: {
  startsAt: string;
  endsAt: string | null;
  status: AccreditationStatus;
  className?: string;
}) {
  return (
    <p className={cn('text-slate-800', className)} data-testid="accreditation-window">
      {endsAt === null ? (
        <FormattedMessage id="accreditation.since" values={{ start: displayDateTime(startsAt) }} />
      ) : (
        <FormattedMessage
          {...(status === 'expired' ? WINDOW_MESSAGES.expired : WINDOW_MESSAGES.current)}
          values={{
            start: displayDateTime(startsAt),
            end: <time dateTime={endsAt}>{displayDateTime(endsAt)}</time>,
          }}
        />
      )}
    </p>
  );
}

const STATUS_STYLES: Record<AccreditationStatus, string> = {
  active: 'bg-emerald-100 text-emerald-900',
  expired: 'bg-amber-100 text-amber-900',
  revoked: 'bg-slate-200 text-slate-800',
};

export function StatusBadge({ status }: { status: AccreditationStatus }) {
  return (
    <span
      className={cn('inline-flex rounded-full px-2.5 py-0.5 text-sm font-medium', STATUS_STYLES[status])}
      data-testid="accreditation-status"
      data-status={status}
    >
      <FormattedMessage {...STATUS_MESSAGES[status]} />
    </span>
  );
}

const STATUS_MESSAGES: Record<AccreditationStatus, MessageDescriptor> = defineMessages({
  active: { id: 'accreditation.status.active' },
  expired: { id: 'accreditation.status.expired' },
  revoked: { id: 'accreditation.status.revoked' },
});

/** The title of each kind of accreditation (spec §3: qr, face, proof). */
export const KIND_MESSAGES: Record<AccreditationKind, MessageDescriptor> = defineMessages({
  qr: { id: 'accreditation.kind.qr' },
  face: { id: 'accreditation.kind.face' },
  proof: { id: 'accreditation.kind.proof' },
});

/** What each error code of the accreditation machine tells the person. */
const ERROR_MESSAGES: Record<string, MessageDescriptor> = defineMessages({
  credential_not_found: { id: 'accreditation.error.credential_not_found' },
  credential_unavailable: { id: 'accreditation.error.credential_unavailable' },
  extend_failed: { id: 'accreditation.error.extend_failed' },
  revoke_failed: { id: 'accreditation.error.revoke_failed' },
  pdf_unavailable: { id: 'accreditation.error.pdf_unavailable' },
});

/** What went wrong, and a Retry when the machine offers one. */
export function AccreditationProblem({ actor }: { actor: AccreditationActor }) {
  const code = useSelector(actor, errorCodeOf);
  const canRetry = useSelector(actor, (s) => s.can({ type: 'accreditation.retry' }));
  const message = ERROR_MESSAGES[code ?? ''] ?? ERROR_MESSAGES.credential_unavailable;
  const intl = useIntl();
  return (
    <Alert message={message ? intl.formatMessage(message) : ''} data-error-code={code}>
      {canRetry && (
        <Button variant="secondary" onClick={() => actor.send({ type: 'accreditation.retry' })}>
          <FormattedMessage id="accreditation.retry" />
        </Button>
      )}
    </Alert>
  );
}
