import { useSelector } from '@xstate/react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { type PortalEntry, portalEntries } from '../../auth/access';
import { Card } from '../../components/ui/card';
import { pathFor } from '../../domain/screens';
import { useRuntime, useTenant } from '../../runtime/context';

/** PortalManagement: the portal menu (spec §2), each entry only for whom its screen admits. */
export function PortalManagement() {
  const { session } = useRuntime();
  const { settings } = useTenant();
  const current = useSelector(session, (s) => s.context.session);
  return (
    <section data-screen="PortalManagement" className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.PortalManagement" />
      </h1>
      {current && (
        <p className="mt-2 text-slate-700">
          <FormattedMessage id="portal.greeting" values={{ name: current.firstName || current.userName }} />
        </p>
      )}
      {/* The entries follow from who is signed in: none drawn before that is known (the server's paint). */}
      {current && <Entries entries={portalEntries(current, settings)} />}
    </section>
  );
}

function Entries({ entries }: { entries: readonly PortalEntry[] }) {
  if (entries.length === 0) {
    return (
      <Card className="mt-6">
        <p className="text-slate-700">
          <FormattedMessage id="portal.empty" />
        </p>
      </Card>
    );
  }
  return (
    <ul className="mt-6 grid gap-3 sm:grid-cols-2" data-testid="portal-entries">
      {entries.map((entry) => (
        <li key={entry.id}>
          <Link
            href={pathFor(entry.screen) ?? '/'}
            data-testid={`portal-${entry.id}`}
            className="block rounded-xl border border-slate-200 bg-white p-4 font-medium shadow-sm hover:border-brand focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand"
          >
            <FormattedMessage id={entry.messageId} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
