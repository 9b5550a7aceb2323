import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useSearch } from 'wouter';
import { passesGuard } from '../../auth/access';
import { KnowMoreLink } from '../../components/know-more-link';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { pathFor, type ScreenName, screens } from '../../domain/screens';
import { useRuntime, useTenant } from '../../runtime/context';
import {
  AccountGate,
  AccreditationProblem,
  QrImage,
  QrPlaceholder,
  StatusBadge,
  useAccreditation,
  useWakeLock,
  ValidityWindow,
  viewOf,
} from './parts';

/** The entries of UserHome, each shown when the person's rights open its screen (spec §2 guards, §6). */
const ENTRIES: readonly { screen: ScreenName; messageId: string; testId: string }[] = [
  { screen: 'MyAccreditations', messageId: 'home.entry.accreditations', testId: 'home-accreditations' },
  { screen: 'MyVisits', messageId: 'home.entry.visits', testId: 'home-visits' },
  { screen: 'UserProfile', messageId: 'home.entry.profile', testId: 'home-profile' },
];

/** The saloon the person was sent to (`?saloon=`), as text; nothing when absent or blank. */
export function saloonOf(search: string): string | null {
  const value = new URLSearchParams(search).get('saloon')?.trim();
  return value ? value.slice(0, 100) : null;
}

/**
 * UserHome (home, spec §2): the person's name, their QR credential ready to show (large, high contrast, the screen
 * kept awake while it is shown), its validity, the saloon of `?saloon=`, the entries the person's rights allow and
 * the tenant's "know more" link.
 */
export function UserHome() {
  return <AccountGate>{(accountId) => <Home accountId={accountId} />}</AccountGate>;
}

function Home({ accountId }: { accountId: string }) {
  const intl = useIntl();
  const runtime = useRuntime();
  const { settings } = useTenant();
  const session = useSelector(runtime.session, (s) => s.context.session);
  const saloon = saloonOf(useSearch());
  const actor = useAccreditation(accountId, null);
  const view = useSelector(actor, viewOf);
  const credential = useSelector(actor, (s) => s.context.credential);
  const holder = useSelector(actor, (s) => s.context.holder);
  const qrImage = useSelector(actor, (s) => s.context.qrImage);
  const showing = view === 'active' || view === 'confirmingRevoke';
  useWakeLock(showing && qrImage !== null);
  const name = holder || session?.firstName || session?.userName || '';
  const entries = ENTRIES.filter(
    (entry) => session && passesGuard(screens[entry.screen].guard, session, settings),
  );

  return (
    <section data-screen="UserHome" className="mx-auto flex w-full max-w-xl flex-col gap-5">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight" data-testid="home-name">
          <FormattedMessage id="home.greeting" values={{ name }} />
        </h1>
        {saloon && (
          <p className="text-lg text-slate-800" data-testid="home-saloon">
            <FormattedMessage id="home.saloon" values={{ saloon: <strong>{saloon}</strong> }} />
          </p>
        )}
      </header>

      <Card className="flex flex-col items-center gap-4 text-center" aria-busy={view === 'loading'}>
        <h2 className="text-lg font-semibold">
          <FormattedMessage id="home.qr.heading" />
        </h2>
        {view === 'loading' && (
          // The credential's place while it loads: its square with the spinner in it, and the height of the
          // lines under the QR (the hint, the badge, the validity and the detail link, with the card's gaps), so
          // the entries below do not move when it comes.
          <>
            <QrPlaceholder>
              <Spinner label={intl.formatMessage({ id: 'home.qr.loading' })} />
            </QrPlaceholder>
            <div aria-hidden="true" className="h-[184px] w-full" />
          </>
        )}
        {showing && credential && (
          <>
            <QrImage image={qrImage} holder={name} />
            <p className="text-sm text-slate-700">
              <FormattedMessage id="home.qr.show" />
            </p>
            <StatusBadge status="active" />
            <ValidityWindow
              startsAt={credential.starts_at}
              endsAt={credential.ends_at}
              status="active"
              className="text-base font-medium"
            />
            <Link
              href={pathFor('AccreditationDetail', { accreditationId: credential.sid }) ?? '/'}
              className={buttonVariants({ variant: 'secondary', className: 'w-full' })}
              data-testid="home-qr-detail"
            >
              <FormattedMessage id="home.qr.detail" />
            </Link>
          </>
        )}
        {(view === 'expired' || view === 'revoked') && credential && (
          <div
            className="flex w-full flex-col items-center gap-3"
            role="status"
            data-testid="home-qr-unusable"
          >
            <StatusBadge status={view} />
            <p className="text-slate-800">
              {view === 'expired' ? (
                <FormattedMessage id="home.qr.expired" />
              ) : (
                <FormattedMessage id="home.qr.revoked" />
              )}
            </p>
            <Link
              href={
                view === 'expired'
                  ? (pathFor('AccreditationDetail', { accreditationId: credential.sid }) ?? '/')
                  : (pathFor('MyAccreditations') ?? '/')
              }
              className={buttonVariants({ className: 'w-full' })}
            >
              {view === 'expired' ? (
                <FormattedMessage id="home.qr.extend" />
              ) : (
                <FormattedMessage id="home.qr.requestNew" />
              )}
            </Link>
          </div>
        )}
        {view === 'notFound' && (
          <p className="text-slate-800" role="status" data-testid="home-qr-none">
            <FormattedMessage id="home.qr.none" />
          </p>
        )}
        {view === 'failed' && <AccreditationProblem actor={actor} />}
      </Card>

      {entries.length > 0 && (
        <nav aria-label={intl.formatMessage({ id: 'home.entries' })}>
          <ul className="grid gap-3">
            {entries.map((entry) => (
              <li key={entry.screen}>
                <Link
                  href={pathFor(entry.screen) ?? '/'}
                  className={buttonVariants({ variant: 'secondary', className: 'w-full justify-start' })}
                  data-testid={entry.testId}
                >
                  <FormattedMessage id={entry.messageId} />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <KnowMoreLink url={settings.knowMoreUrl} className="self-center text-brand-strong underline" />
    </section>
  );
}
