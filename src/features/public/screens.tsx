import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { toSafeSameOriginPath } from '../../api/safe-link';
import { useTenant } from '../../app/runtime-context';
import { ScreenPending } from '../../components/screen-pending';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';

/** The root (spec §2: unknown paths land here). */
export function Welcome() {
  const { settings } = useTenant();
  return (
    <Card className="mx-auto max-w-xl text-center" data-screen="Welcome">
      <h1 className="text-3xl font-bold tracking-tight" data-testid="welcome-title">
        <FormattedMessage id="welcome.title" values={{ title: settings.title }} />
      </h1>
      <p className="mt-4 text-lg text-slate-700">
        <FormattedMessage id="welcome.description" />
      </p>
      <Link
        href="/landing"
        className={buttonVariants({ className: 'mt-8 w-full sm:w-auto' })}
        data-testid="start"
      >
        <FormattedMessage id="welcome.start" />
      </Link>
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

export const Callback = () => <ScreenPending screen="Callback" />;
export const Silent = () => null;
export const ResetCredentials = () => <ScreenPending screen="ResetCredentials" />;
