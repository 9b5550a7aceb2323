import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import { Link, useSearch } from 'wouter';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { formatDateTime } from '../../../contract/domain/dates';
import { isEmail } from '../../../contract/domain/email';
import type { credentialResetMachine, ResetRefusal } from '../../../machines/credential-reset.machine';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { errorText } from '../../i18n/error-text';
import { useRuntime } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { useSessionPresence } from '../../runtime/session-presence';

// ResetCredentials (spec §2, public). /reset-credentials asks for an email; the mailed link
// /reset-credentials?token=… is the event link.opened once the session is known (machines/credential-reset).

const REFUSALS: Record<ResetRefusal, MessageDescriptor> = defineMessages({
  reset_link_expired: { id: 'resetCredentials.refused.reset_link_expired' },
  reset_link_used: { id: 'resetCredentials.refused.reset_link_used' },
  reset_link_not_found: { id: 'resetCredentials.refused.reset_link_not_found' },
  forbidden: { id: 'resetCredentials.refused.forbidden' },
  unknown: { id: 'resetCredentials.refused.unknown' },
});
const m = defineMessages({
  submit: { id: 'resetCredentials.submit' },
  sending: { id: 'resetCredentials.sending' },
});

type ResetSnapshot = SnapshotFrom<typeof credentialResetMachine>;
type ResetActor = ActorRefFrom<typeof credentialResetMachine>;
type View = 'form' | 'sending' | 'sent' | 'signIn' | 'redeeming' | 'refused' | 'done';

function viewOf(s: ResetSnapshot): View {
  if (s.matches('done')) return 'done';
  if (s.matches('signInNeeded')) return 'signIn';
  if (s.matches('redeeming') || s.matches('waitingForSession')) return 'redeeming';
  if (s.matches('requesting')) return 'sending';
  if (s.matches('sent')) return 'sent';
  if (s.matches('refused')) return 'refused';
  return 'form';
}

function refusalIn(snapshot: ResetSnapshot): ResetRefusal {
  const metas = Object.values(snapshot.getMeta()) as ({ errorCode?: ResetRefusal } | undefined)[];
  return metas.find((meta) => meta?.errorCode)?.errorCode ?? 'unknown';
}

export function ResetCredentials() {
  const intl = useIntl();
  const logic = useScreenMachine('credentialReset');
  const actor = useActorRef(logic);
  const view = useSelector(actor, viewOf);
  const presence = useSessionPresence();
  const token = new URLSearchParams(useSearch()).get('token');

  // URLs come in as events: the link's token is link.opened, once it is known whether someone is signed in.
  useEffect(() => {
    if (token && presence !== 'pending') actor.send({ type: 'link.opened', token });
  }, [actor, token, presence]);

  const waitingForLink = token !== null && view === 'form';
  return (
    <section data-screen="ResetCredentials" className="mx-auto flex max-w-xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.ResetCredentials" />
      </h1>
      <Card aria-busy={view === 'sending' || view === 'redeeming' || waitingForLink}>
        {(view === 'redeeming' || waitingForLink) && (
          <Spinner label={intl.formatMessage({ id: 'resetCredentials.redeeming' })} />
        )}
        {view === 'signIn' && <SignIn token={token ?? ''} />}
        {view === 'done' && <NewCredential actor={actor} />}
        {view === 'refused' && <Refused actor={actor} />}
        {view === 'sent' && (
          <p role="status" className="mb-4 text-slate-800" data-testid="reset-credentials-sent">
            <FormattedMessage id="resetCredentials.sent" />
          </p>
        )}
        {(view === 'form' || view === 'sending' || view === 'sent' || view === 'refused') &&
          !waitingForLink && (
            <RequestForm
              actor={actor}
              busy={view === 'sending'}
              again={view === 'sent' || view === 'refused'}
            />
          )}
      </Card>
    </section>
  );
}

function RequestForm({ actor, busy, again }: { actor: ResetActor; busy: boolean; again: boolean }) {
  const intl = useIntl();
  const { session } = useRuntime();
  const signedInEmail = useSelector(session, (s) => s.context.session?.email ?? '');
  const failed = useSelector(actor, (s) => s.matches('requestFailed'));
  const [email, setEmail] = useState(signedInEmail);
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isEmail(email.trim())) {
      setError(intl.formatMessage({ id: 'common.errors.wrong_format' }));
      return;
    }
    setError(undefined);
    actor.send({ type: 'reset.requested', email: email.trim() });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="reset-credentials-form">
      {!again && (
        <p className="text-slate-700">
          <FormattedMessage id="resetCredentials.lead" />
        </p>
      )}
      {failed && <Alert message={intl.formatMessage({ id: 'resetCredentials.requestFailed' })} />}
      <Field
        label={intl.formatMessage({ id: 'resetCredentials.email' })}
        type="email"
        autoComplete="email"
        value={email}
        error={error}
        onChange={(event) => setEmail(event.target.value)}
        data-testid="reset-credentials-email"
      />
      <Button type="submit" className="self-start" disabled={busy} data-testid="reset-credentials-submit">
        <FormattedMessage {...(busy ? m.sending : m.submit)} />
      </Button>
    </form>
  );
}

function SignIn({ token }: { token: string }) {
  const { session } = useRuntime();
  const signingIn = useSelector(session, (s) => s.matches('signingIn'));
  const returnTo = `${pathFor('ResetCredentials') ?? '/reset-credentials'}?token=${encodeURIComponent(token)}`;
  return (
    <div className="flex flex-col gap-4" data-testid="reset-credentials-sign-in">
      <p className="text-slate-700">
        <FormattedMessage id="resetCredentials.signIn.lead" />
      </p>
      <Button
        className="self-start"
        disabled={signingIn}
        data-testid="reset-credentials-login"
        onClick={() => session.send({ type: 'session.login', returnTo })}
      >
        <FormattedMessage id="resetCredentials.signIn.button" />
      </Button>
    </div>
  );
}

function Refused({ actor }: { actor: ResetActor }) {
  const intl = useIntl();
  const refusal = useSelector(actor, refusalIn);
  // A link the server did not refuse (no answer, a fault) may still be good: it is redeemed again on request.
  const canRetry = useSelector(actor, (s) => s.can({ type: 'link.retry' }));
  // A refusal no state names: its words, or the server's in a sentence of the person's language (spec §8).
  const problem = useSelector(actor, (s) => (s.matches({ refused: 'failed' }) ? s.context.problem : null));
  return (
    <Alert
      className="mb-4"
      message={intl.formatMessage(REFUSALS[refusal])}
      data-testid="reset-credentials-refused"
      data-refusal={refusal}
    >
      {problem && <p>{errorText(intl, problem.code, { serverText: problem.text })}</p>}
      {canRetry && (
        <div>
          <Button variant="secondary" onClick={() => actor.send({ type: 'link.retry' })}>
            <FormattedMessage id="resetCredentials.retry" />
          </Button>
        </div>
      )}
    </Alert>
  );
}

function NewCredential({ actor }: { actor: ResetActor }) {
  const intl = useIntl();
  const credential = useSelector(actor, (s) => s.context.credential);
  const qrUrl = useSelector(actor, (s) => s.context.qrUrl);
  const loading = useSelector(actor, (s) => s.matches({ done: 'loadingQr' }));
  if (!credential) return null;
  return (
    <div className="flex flex-col items-center gap-4 text-center" data-testid="reset-credentials-done">
      <p role="status" className="text-slate-800">
        <FormattedMessage id="resetCredentials.done" values={{ count: credential.revoked }} />
      </p>
      {loading && <Spinner label={intl.formatMessage({ id: 'resetCredentials.qrLoading' })} />}
      {qrUrl && (
        <img
          src={qrUrl}
          alt={intl.formatMessage({ id: 'resetCredentials.qrAlt' })}
          data-testid="reset-credentials-qr"
          data-sid={credential.sid}
          className="size-64 rounded-lg border border-slate-200 bg-white p-2 [image-rendering:pixelated]"
        />
      )}
      <p className="text-sm text-slate-700">
        <FormattedMessage
          id="resetCredentials.validUntil"
          values={{ date: formatDateTime(new Date(credential.ends_at)) }}
        />
      </p>
      <Link
        href={pathFor('UserHome') ?? '/home'}
        className={buttonVariants({ className: 'w-full sm:w-auto' })}
      >
        <FormattedMessage id="resetCredentials.home" />
      </Link>
    </div>
  );
}
