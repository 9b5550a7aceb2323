import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { UserCredentials } from '../../../contract/api/credentials';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import {
  type AccreditationItem,
  accreditationItems,
  allowedKinds,
  holderOf,
  statusOf,
} from '../../domain/accreditations';
import { pathFor } from '../../domain/screens';
import { useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import {
  AccountGate,
  type AccreditationActor,
  AccreditationProblem,
  displayDateTime,
  KIND_MESSAGES,
  StatusBadge,
  useAccreditation,
  ValidityWindow,
  viewOf,
} from './parts';

/**
 * MyAccreditations (my-accreditations, spec §2): the person's qr, face and proof accreditations with their state
 * (spec §3: a qr one is valid only while its end is in the future, the others always), only the kinds of the
 * tenant's credentialTypesWhitelist when it is set; an expired qr one is shown as expired, with extend.
 */
export function MyAccreditations() {
  return <AccountGate>{(accountId) => <Accreditations accountId={accountId} />}</AccountGate>;
}

function Accreditations({ accountId }: { accountId: string }) {
  const intl = useIntl();
  const { settings } = useTenant();
  const logic = useScreenMachine('list.accreditations', accountId);
  const list = useActorRef(logic, { input: { pageSize: 1 } });
  const state = useSelector(list, (s) =>
    s.hasTag('busy') ? 'loading' : s.hasTag('error') ? 'failed' : 'ready',
  );
  const loaded = useSelector(list, (s) => s.context.items[0] as UserCredentials | undefined);
  const all = loaded?.credentials;
  const holder = loaded ? holderOf(loaded.metadata) : null;
  const kinds = allowedKinds(settings.credentialTypesWhitelist);
  const items = all ? accreditationItems(all, kinds) : [];
  const held = new Set(items.filter((item) => item.status !== 'revoked').map((item) => item.kind));

  return (
    <section data-screen="MyAccreditations" className="mx-auto flex w-full max-w-xl flex-col gap-5">
      <h1 className="text-2xl font-bold tracking-tight">
        <FormattedMessage id="screen.MyAccreditations" />
      </h1>
      <div aria-live="polite" aria-busy={state === 'loading'} className="flex flex-col gap-4">
        {state === 'loading' && <Spinner label={intl.formatMessage({ id: 'accreditations.loading' })} />}
        {state === 'failed' && (
          <Alert message={intl.formatMessage({ id: 'accreditations.failed' })}>
            <div>
              <Button variant="secondary" onClick={() => list.send({ type: 'list.retry' })}>
                <FormattedMessage id="accreditation.retry" />
              </Button>
            </div>
          </Alert>
        )}
        {state === 'ready' && items.length === 0 && (
          <Card>
            <p data-testid="accreditations-empty">
              <FormattedMessage id="accreditations.empty" />
            </p>
          </Card>
        )}
        {state === 'ready' && items.length > 0 && (
          <ul className="flex flex-col gap-3" data-testid="accreditations">
            {items.map((item) => (
              <li key={item.sid}>
                <AccreditationRow item={item} accountId={accountId} holder={holder} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {state === 'ready' && (
        <nav
          aria-label={intl.formatMessage({ id: 'accreditations.request' })}
          className="flex flex-col gap-3"
        >
          {kinds.includes('face') && (
            <Link
              href={pathFor('AccreditFace') ?? '/'}
              className={buttonVariants({ variant: 'secondary', className: 'w-full' })}
              data-testid="accreditations-face"
            >
              {held.has('face') ? (
                <FormattedMessage id="accreditations.renewFace" />
              ) : (
                <FormattedMessage id="accreditations.requestFace" />
              )}
            </Link>
          )}
          {kinds.includes('proof') && !held.has('proof') && (
            <Link
              href={pathFor('AccreditProof') ?? '/'}
              className={buttonVariants({ variant: 'secondary', className: 'w-full' })}
              data-testid="accreditations-proof"
            >
              <FormattedMessage id="accreditations.requestProof" />
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

interface RowProps {
  item: AccreditationItem;
  accountId: string;
  /** The holder's name from the list: the row's machine does not ask for the list again. */
  holder: string | null;
}

function AccreditationRow({ item, accountId, holder }: RowProps) {
  if (item.kind === 'qr' && item.status === 'expired')
    return <ExpiredQrRow item={item} accountId={accountId} holder={holder} />;
  return (
    <RowFrame item={item}>
      <Link
        href={pathFor('AccreditationDetail', { accreditationId: item.sid }) ?? '/'}
        className="self-start text-brand-strong underline underline-offset-2"
        data-testid="accreditation-open"
      >
        <FormattedMessage id="accreditations.open" />
      </Link>
    </RowFrame>
  );
}

/** One accreditation: its kind, its state and its window (a qr one) or since when it is held. */
function RowFrame({ item, children }: { item: AccreditationItem; children: ReactNode }) {
  return (
    <Card className="flex flex-col gap-2 p-4 sm:p-5" data-testid="accreditation-item" data-kind={item.kind}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">
          <FormattedMessage {...KIND_MESSAGES[item.kind]} />
        </h2>
        <StatusBadge status={item.status} />
      </div>
      {item.kind === 'qr' ? (
        <ValidityWindow
          startsAt={item.startsAt}
          endsAt={item.endsAt}
          status={item.status}
          className="text-sm"
        />
      ) : (
        <p className="text-sm text-slate-700">
          <FormattedMessage id="accreditation.since" values={{ start: displayDateTime(item.createdAt) }} />
        </p>
      )}
      {children}
    </Card>
  );
}

/** An expired QR, extended right in the list: its accreditation machine, from expired to a new window. */
function ExpiredQrRow({ item, accountId, holder }: RowProps) {
  const actor = useAccreditation(accountId, item.sid, holder);
  const credential = useSelector(actor, (s) => s.context.credential);
  const shown: AccreditationItem = credential
    ? { ...item, status: statusOf(credential), startsAt: credential.starts_at, endsAt: credential.ends_at }
    : item;
  return (
    <RowFrame item={shown}>
      <ExtendExpired actor={actor} />
    </RowFrame>
  );
}

/** The extend button of an expired QR, then the end of its new 15-day window. */
function ExtendExpired({ actor }: { actor: AccreditationActor }) {
  const intl = useIntl();
  const view = useSelector(actor, viewOf);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const credential = useSelector(actor, (s) => s.context.credential);
  if (view === 'failed') return <AccreditationProblem actor={actor} />;
  if (view === 'active' && credential?.ends_at) {
    return (
      <p role="status" className="font-medium text-emerald-900" data-testid="accreditation-extended">
        <FormattedMessage id="accreditation.extended" values={{ end: displayDateTime(credential.ends_at) }} />
      </p>
    );
  }
  return (
    <Button
      className="self-start"
      size="sm"
      disabled={view !== 'expired' || busy}
      onClick={() => actor.send({ type: 'accreditation.extend' })}
      data-testid="accreditation-extend"
    >
      {busy ? <Spinner label={intl.formatMessage({ id: 'accreditation.extending' })} /> : null}
      <FormattedMessage id="accreditation.extend" />
    </Button>
  );
}
