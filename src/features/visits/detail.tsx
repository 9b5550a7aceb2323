import * as Tabs from '@radix-ui/react-tabs';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useSearch } from 'wouter';
import type { Visit } from '../../../contract/api/visits';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { errorText } from '../../i18n/error-text';
import { useScreenMachine } from '../../runtime/machines';
import { useScreenMirror } from '../../runtime/screen-mirror';
import { useSettledSelector } from '../../runtime/settled-selector';
import { isReceptionist, StatusBadge, useSession, VisitHistory, VisitTitle, VisitWhen } from './parts';
import { VisitActions } from './visit-actions';

/** The QR to print: loading, loaded (null: the visitor holds no valid one) or failed; one load per attempt. */
interface QrLoad {
  attempt: number;
  status: 'loading' | 'loaded' | 'failed';
  url: string | null;
}

/** Runs one load of the visit's QR (machine id visitQr) and hands what it settles on to the screen. */
function QrLoader({
  visitId,
  attempt,
  onSettled,
}: {
  visitId: string;
  attempt: number;
  onSettled: (load: QrLoad) => void;
}) {
  const logic = useScreenMachine('visitQr');
  const actor = useActorRef(logic, { input: { visitId } });
  const status = useSettledSelector(actor, (s) =>
    s.status === 'done' ? 'loaded' : s.status === 'error' ? 'failed' : 'loading',
  );
  const url = useSettledSelector(actor, (s) => (s.status === 'done' ? s.output : null));
  useEffect(() => {
    if (status !== 'loading') onSettled({ attempt, status, url });
  }, [onSettled, attempt, status, url]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return null;
}

function Info({ visit, printed = false }: { visit: Visit; printed?: boolean }) {
  const rows: { messageId: string; value: React.ReactNode }[] = [
    {
      messageId: 'visits.info.status',
      value: printed ? (
        <FormattedMessage id={`visits.status.${visit.status}`} />
      ) : (
        <StatusBadge status={visit.status} />
      ),
    },
    { messageId: 'visits.info.when', value: <VisitWhen visit={visit} /> },
    { messageId: 'visits.info.location', value: `${visit.location.alias} (${visit.location.timezone})` },
    {
      messageId: 'visits.info.host',
      value: visit.host.name ? `${visit.host.name} · ${visit.host.email}` : visit.host.email,
    },
    {
      messageId: 'visits.info.visitor',
      value: [visit.visitorData.name, visit.visitorData.email].filter(Boolean).join(' · ') || '—',
    },
    { messageId: 'visits.info.guests', value: String(visit.guests) },
  ];
  const plan = (visit.extra_fields?.emergency_instructions as { accepted?: boolean } | undefined)?.accepted;
  return (
    <dl
      className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]"
      data-testid={printed ? undefined : 'visit-info'}
    >
      {rows.map(({ messageId, value }) => (
        <div key={messageId} className="contents">
          <dt className="text-sm font-medium text-slate-700">
            <FormattedMessage id={messageId} />
          </dt>
          <dd>{value}</dd>
        </div>
      ))}
      <dt className="text-sm font-medium text-slate-700">
        <FormattedMessage id="visits.info.plan" />
      </dt>
      <dd>
        {plan ? (
          <FormattedMessage id="visits.info.planRead" />
        ) : (
          <FormattedMessage id="visits.info.planNotRead" />
        )}
      </dd>
    </dl>
  );
}

/** One page to print: the visitor's QR and the visit's data (print stylesheet in src/styles/index.css). */
function PrintSheet({ visit, qr }: { visit: Visit; qr: string | null }) {
  return (
    <div data-print-area className="hidden print:block">
      <h1 className="text-2xl font-semibold">
        <VisitTitle visit={visit} />
      </h1>
      {qr && <img src={qr} alt="" className="my-6 size-64" />}
      <Info visit={visit} printed />
    </div>
  );
}

/** VisitDetail (visit-detail?data={visitId}): tabs info and history, the actions, print-QR (spec §2). */
export function VisitDetail() {
  const intl = useIntl();
  const session = useSession();
  const reception = isReceptionist(session);
  const visitId = new URLSearchParams(useSearch()).get('data') ?? '';
  const logic = useScreenMachine('visit');
  const actor = useActorRef(logic, { input: { visitId } });
  // A visit that is not there (no data param, or not this person's) sends the person to MyVisits.
  useScreenMirror(actor);
  const visit = useSelector(actor, (s) => s.context.visit);
  const loading = useSelector(actor, (s) => s.hasTag('busy'));
  // A load that failed: the API client's notice said why, or (a refusal, a visit not found) the screen says it.
  const failure = useSelector(actor, (s) => {
    if (s.context.visit !== null) return null;
    if (s.matches('notFound')) return { retry: false, why: 'not_found' };
    if (s.matches('loadRefused')) return { retry: true, why: s.context.code, text: s.context.serverText };
    return s.matches('failed') ? { retry: true } : null;
  });
  // The QR to print loads beside the visit; after a failure, Retry loads it again (a new load, keyed).
  const [qrLoad, setQrLoad] = useState<QrLoad>({ attempt: 0, status: 'loading', url: null });
  const qr = qrLoad.url;
  const loadQrAgain = () =>
    setQrLoad(({ attempt }) => ({ attempt: attempt + 1, status: 'loading', url: null }));

  return (
    <section data-screen="VisitDetail" className="mx-auto max-w-3xl">
      <QrLoader key={qrLoad.attempt} visitId={visitId} attempt={qrLoad.attempt} onSettled={setQrLoad} />
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h1 className="text-2xl font-semibold">
          {visit ? <VisitTitle visit={visit} /> : intl.formatMessage({ id: 'screen.VisitDetail' })}
        </h1>
        <Link
          href={pathFor(reception ? 'VisitList' : 'MyVisits') ?? '/'}
          className={buttonVariants({ variant: 'secondary', size: 'sm' })}
        >
          <FormattedMessage id={reception ? 'screen.VisitList' : 'screen.MyVisits'} />
        </Link>
      </div>
      {loading && !visit && <Spinner label={intl.formatMessage({ id: 'visits.loading' })} />}
      {failure && (
        <Card className="mt-4" role="alert" data-testid="visit-load-failure">
          <p>
            <FormattedMessage id="visits.loadFailed" />
          </p>
          {'why' in failure && (
            <p className="mt-2 text-slate-700">
              {errorText(intl, failure.why, { serverText: failure.text })}
            </p>
          )}
          {failure.retry && (
            <Button className="mt-4" variant="secondary" onClick={() => actor.send({ type: 'visit.reload' })}>
              <FormattedMessage id="visits.retry" />
            </Button>
          )}
        </Card>
      )}
      {visit && (
        <>
          <Tabs.Root defaultValue="info" className="mt-4 print:hidden">
            <Tabs.List
              className="flex gap-1 border-b border-slate-200"
              aria-label={intl.formatMessage({ id: 'visits.tabs' })}
            >
              {(['info', 'history'] as const).map((tab) => (
                <Tabs.Trigger
                  key={tab}
                  value={tab}
                  data-testid={`visit-tab-${tab}`}
                  className="-mb-px border-b-2 border-transparent px-4 py-2 font-medium text-slate-700 data-[state=active]:border-brand data-[state=active]:text-slate-900"
                >
                  <FormattedMessage id={`visits.tab.${tab}`} />
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="info" className="pt-4">
              <Card>
                <Info visit={visit} />
                <div className="mt-6 flex flex-col gap-3">
                  <VisitActions actor={actor} reception={reception} via="reception" />
                  {reception && visit.visitor && (
                    <Link
                      href={pathFor('NewVisit', { userId: visit.visitor }) ?? '/'}
                      className={`${buttonVariants({ variant: 'secondary' })} self-start`}
                      data-testid="visit-new-for-visitor"
                    >
                      <FormattedMessage id="visits.newForVisitor" />
                    </Link>
                  )}
                  {qrLoad.status === 'failed' && (
                    <Alert
                      tone="warning"
                      message={intl.formatMessage({ id: 'visits.qrFailed' })}
                      data-testid="visit-qr-failed"
                    >
                      <div>
                        <Button variant="secondary" onClick={loadQrAgain}>
                          <FormattedMessage id="visits.qrRetry" />
                        </Button>
                      </div>
                    </Alert>
                  )}
                  {qrLoad.status === 'loaded' && !qr && (
                    // A 404: the visitor holds no valid QR credential, so there is nothing to print; said, and how
                    // to have one, rather than a print button that is simply not there.
                    <Alert
                      tone="info"
                      message={
                        reception
                          ? intl.formatMessage({ id: 'visits.qrNone.reception' })
                          : intl.formatMessage({ id: 'visits.qrNone.self' })
                      }
                      data-testid="visit-qr-none"
                    />
                  )}
                  {qr && (
                    <Button
                      variant="secondary"
                      className="self-start"
                      data-testid="visit-print"
                      onClick={() => window.print()}
                    >
                      <FormattedMessage id="visits.printQr" />
                    </Button>
                  )}
                </div>
              </Card>
            </Tabs.Content>
            <Tabs.Content value="history" className="pt-4">
              <VisitHistory visit={visit} />
            </Tabs.Content>
          </Tabs.Root>
          <PrintSheet visit={visit} qr={qr} />
        </>
      )}
    </section>
  );
}
