import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { RightAction } from '../../../contract/api/credentials';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { useRuntime } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { useSessionPresence } from '../../runtime/session-presence';
import { AccountGate, displayDateTime, StatusBadge, useAccountId } from './parts';

// The camera's view (with the capture's frame scoring) loads when a new selfie is asked for, as its machine does:
// the screen's first state, the one a person opens it for, needs none of it, and the server paints that state.
const CaptureView = lazy(() =>
  import('../onboarding/capture/capture-view').then((module) => ({ default: module.CaptureView })),
);

type Kind = 'face' | 'proof';
const ACTIONS: Record<Kind, RightAction> = { face: 'access_face', proof: 'access_proof' };

const TEXTS = {
  face: defineMessages({
    lead: { id: 'accredit.face.lead' },
    request: { id: 'accredit.face.request' },
    granted: { id: 'accredit.face.granted' },
    held: { id: 'accredit.face.held' },
  }),
  proof: defineMessages({
    lead: { id: 'accredit.proof.lead' },
    request: { id: 'accredit.proof.request' },
    granted: { id: 'accredit.proof.granted' },
    held: { id: 'accredit.proof.held' },
  }),
} satisfies Record<Kind, unknown>;

/** AccreditFace (accredit-face, spec §2): ask for the face accreditation, and renew the selfie behind it. */
export function AccreditFace() {
  return <AccountGate>{(accountId) => <Accredit kind="face" accountId={accountId} />}</AccountGate>;
}

/**
 * AccreditProof (accredit-proof, spec §2: no guard, it can be opened from a link): without a session it asks the
 * person to sign in, and the sign-in comes back here.
 */
export function AccreditProof() {
  const intl = useIntl();
  const { session } = useRuntime();
  const presence = useSessionPresence();
  const accountId = useAccountId();
  if (presence === 'pending') return <Spinner label={intl.formatMessage({ id: 'accredit.loading' })} />;
  if (presence === 'signedOut' || !accountId) {
    return (
      <section data-screen="AccreditProof" className="mx-auto flex w-full max-w-xl flex-col gap-5">
        <Card className="flex flex-col gap-4">
          <h1 className="text-2xl font-bold tracking-tight">
            <FormattedMessage id="screen.AccreditProof" />
          </h1>
          <p className="text-slate-800">
            <FormattedMessage id="accredit.proof.signInFirst" />
          </p>
          <Button
            onClick={() => session.send({ type: 'session.login', returnTo: pathFor('AccreditProof') ?? '/' })}
            data-testid="accredit-sign-in"
          >
            <FormattedMessage id="accredit.signIn" />
          </Button>
        </Card>
      </section>
    );
  }
  return <Accredit kind="proof" accountId={accountId} />;
}

function Accredit({ kind, accountId }: { kind: Kind; accountId: string }) {
  const intl = useIntl();
  const logic = useScreenMachine('accreditationRequest', accountId);
  const actor = useActorRef(logic, { input: { action: ACTIONS[kind] } });
  const value = useSelector(actor, (s) => (typeof s.value === 'string' ? s.value : ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const credential = useSelector(actor, (s) => s.context.credential);
  const canRenew = useSelector(actor, (s) => s.can({ type: 'selfie.renew' }));
  const screen = kind === 'face' ? 'AccreditFace' : 'AccreditProof';

  return (
    <section data-screen={screen} data-state={value} className="mx-auto flex w-full max-w-xl flex-col gap-5">
      <h1 className="text-2xl font-bold tracking-tight">
        {kind === 'face' ? (
          <FormattedMessage id="screen.AccreditFace" />
        ) : (
          <FormattedMessage id="screen.AccreditProof" />
        )}
      </h1>
      {value === 'capturing' || value === 'sendingSelfie' ? (
        <>
          <p className="text-slate-800">
            <FormattedMessage id="accredit.face.renewLead" />
          </p>
          <Suspense fallback={<Spinner label={intl.formatMessage({ id: 'common.loading' })} />}>
            <CaptureView
              facing="user"
              purpose="selfie"
              busy={busy}
              onPhoto={(photo) => actor.send({ type: 'selfie.captured', photo: photo.blob })}
            />
          </Suspense>
          {!busy && (
            <Button variant="ghost" onClick={() => actor.send({ type: 'selfie.cancel' })}>
              <FormattedMessage id="accredit.cancel" />
            </Button>
          )}
        </>
      ) : (
        <Card className="flex flex-col gap-4" aria-busy={busy}>
          {value === 'idle' && (
            <>
              <p className="text-slate-800">
                <FormattedMessage {...TEXTS[kind].lead} />
              </p>
              <Button onClick={() => actor.send({ type: 'request.send' })} data-testid="accredit-request">
                <FormattedMessage {...TEXTS[kind].request} />
              </Button>
            </>
          )}
          {busy && <Spinner label={intl.formatMessage({ id: 'accredit.requesting' })} />}
          {(value === 'granted' || value === 'alreadyHeld') && credential && (
            <div
              role="status"
              className="flex flex-col gap-3"
              data-testid="accredit-result"
              data-result={value}
            >
              <div className="flex items-center justify-between gap-3">
                <p className="text-lg font-semibold">
                  <FormattedMessage {...(value === 'granted' ? TEXTS[kind].granted : TEXTS[kind].held)} />
                </p>
                <StatusBadge status="active" />
              </div>
              <p className="text-slate-700">
                <FormattedMessage
                  id="accreditation.since"
                  values={{ start: displayDateTime(credential.created_at) }}
                />
              </p>
              <Link
                href={pathFor('AccreditationDetail', { accreditationId: credential.sid }) ?? '/'}
                className="self-start text-brand-strong underline underline-offset-2"
              >
                <FormattedMessage id="accreditations.open" />
              </Link>
            </div>
          )}
          {(value === 'failed' || value === 'selfieFailed') && (
            <Alert
              message={
                value === 'failed'
                  ? intl.formatMessage({ id: 'accredit.error.request_failed' })
                  : intl.formatMessage({ id: 'accredit.error.selfie_upload_failed' })
              }
            >
              <Button variant="secondary" onClick={() => actor.send({ type: 'request.retry' })}>
                <FormattedMessage id="accreditation.retry" />
              </Button>
            </Alert>
          )}
          {kind === 'face' && canRenew && (
            <Button
              variant="secondary"
              onClick={() => actor.send({ type: 'selfie.renew' })}
              data-testid="accredit-renew-selfie"
            >
              <FormattedMessage id="accredit.face.renew" />
            </Button>
          )}
          <Link
            href={pathFor('MyAccreditations') ?? '/'}
            className={buttonVariants({ variant: 'ghost', className: 'w-full' })}
          >
            <FormattedMessage id="accredit.toList" />
          </Link>
        </Card>
      )}
    </section>
  );
}
