import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { tenantTitle } from '../../../contract/domain/tenant-title';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { toSafeSameOriginPath } from '../../domain/safe-link';
import { useRuntime, useTenant } from '../../runtime/context';

/**
 * The root (spec §2: unknown paths land here). A signed-in person is sent on to their home screen by the
 * session machine (goHome); meanwhile this shows a spinner.
 */
export function Welcome() {
  const intl = useIntl();
  const { settings } = useTenant();
  const { session } = useRuntime();
  const signedIn = useSelector(session, (s) => s.matches('authenticated'));
  const busy = useSelector(session, (s) => !s.matches('anonymous') && !s.matches('authenticated'));
  if (signedIn) {
    return (
      <div className="flex justify-center py-16" data-screen="Welcome">
        <Spinner label={intl.formatMessage({ id: 'welcome.goingHome' })} />
      </div>
    );
  }
  return (
    <Card className="mx-auto max-w-xl text-center" data-screen="Welcome">
      <h1 className="text-3xl font-bold tracking-tight" data-testid="welcome-title">
        <FormattedMessage id="welcome.title" values={{ title: tenantTitle(settings, intl.locale) }} />
      </h1>
      <p className="mt-4 text-lg text-slate-700">
        <FormattedMessage id="welcome.description" />
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Link
          href="/landing"
          className={buttonVariants({ className: 'w-full sm:w-auto' })}
          data-testid="start"
        >
          <FormattedMessage id="welcome.start" />
        </Link>
        <Button
          variant="secondary"
          className="w-full sm:w-auto"
          data-testid="login"
          disabled={busy}
          onClick={() => session.send({ type: 'session.login' })}
        >
          <FormattedMessage id="welcome.login" />
        </Button>
      </div>
    </Card>
  );
}

const KNOWN_REASONS = new Set(['unexpected', 'forbidden', 'not-found', 'session-expired', 'unavailable']);

/** error/{link}/{reason}: what went wrong and a way on, only ever to a path of this portal. */
export function ErrorScreen() {
  const intl = useIntl();
  const { link = '', reason = '' } = useParams<{ link: string; reason: string }>();
  const target = toSafeSameOriginPath(safeDecode(link)) ?? '/';
  const reasonId = KNOWN_REASONS.has(reason) ? reason : 'unexpected';
  return (
    <Card role="alert" className="mx-auto max-w-xl" data-screen="ErrorScreen" data-reason={reasonId}>
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="error.title" />
      </h1>
      <p className="mt-3 text-slate-700">{intl.formatMessage({ id: `error.reason.${reasonId}` })}</p>
      <Link href={target} className={buttonVariants({ className: 'mt-6' })} data-testid="error-continue">
        <FormattedMessage id="error.continue" />
      </Link>
    </Card>
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '/';
  }
}

/** Callback: the provider has sent the person back; the session machine completes the sign-in. */
export function Callback() {
  const intl = useIntl();
  return (
    <div className="flex min-h-dvh items-center justify-center" data-screen="Callback">
      <Spinner label={intl.formatMessage({ id: 'screen.Callback' })} />
    </div>
  );
}
export const Silent = () => null;
