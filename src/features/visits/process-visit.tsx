import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { VisitArrival } from '../../../contract/api/visits';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { errorText } from '../../i18n/error-text';
import { startQrScan } from '../../media/qr-scan';
import { useScreenMachine } from '../../runtime/machines';
import { useSettledSelector } from '../../runtime/settled-selector';
import { Refusal, StatusBadge, VisitTitle, VisitWhen } from './parts';
import { VisitActions } from './visit-actions';

/** Today's visit of the person reception has just read: one tap checks them in (kiosk) or out (terminal). */
function ArrivedVisit({ arrival }: { arrival: VisitArrival }) {
  const logic = useScreenMachine('visit');
  const actor = useActorRef(logic, {
    input: { visitId: arrival.visit.id, visit: arrival.visit },
  });
  const visit = useSelector(actor, (s) => s.context.visit) ?? arrival.visit;
  const intl = useIntl();
  const state = useSelector(actor, (s) =>
    s.matches('checkedIn')
      ? 'in'
      : s.matches('checkedOut')
        ? 'out'
        : s.matches('requested')
          ? 'requested'
          : 'other',
  );
  const [checkedInHere, setCheckedInHere] = useState(false);
  useEffect(() => {
    if (arrival.visit.status !== 'checked_in' && state === 'in') setCheckedInHere(true);
  }, [arrival.visit.status, state]);
  return (
    <Card data-testid="arrival">
      <p className="text-xl font-semibold" data-testid="arrival-person">
        {arrival.person.name}
      </p>
      <p className="mt-1 text-slate-700">
        <VisitTitle visit={visit} /> · <VisitWhen visit={visit} /> · {visit.location.alias}
      </p>
      <p className="text-slate-700">
        <FormattedMessage id="processVisit.host" values={{ host: visit.host.name ?? visit.host.email }} />
      </p>
      <p className="mt-2">
        <StatusBadge status={visit.status} />
      </p>
      {state === 'in' && !checkedInHere && (
        <Alert
          tone="warning"
          className="mt-4"
          message={intl.formatMessage({ id: 'common.errors.visit_already_checked_in' })}
          data-testid="arrival-already-in"
        />
      )}
      {state === 'out' && (
        <Alert
          tone="info"
          className="mt-4"
          message={intl.formatMessage({ id: 'processVisit.left' })}
          data-testid="arrival-left"
        />
      )}
      {state === 'requested' && (
        <Alert
          tone="warning"
          className="mt-4"
          message={intl.formatMessage({ id: 'common.errors.visit_not_accepted' })}
        />
      )}
      <div className="mt-4 flex flex-col gap-3">
        <VisitActions actor={actor} reception via="kiosk" />
        {visit.visitor && (
          <Link
            href={pathFor('NewVisit', { userId: visit.visitor }) ?? '/'}
            className={`${buttonVariants({ variant: 'secondary', size: 'sm' })} self-start`}
            data-testid="visit-new-for-visitor"
          >
            <FormattedMessage id="visits.newForVisitor" />
          </Link>
        )}
      </div>
    </Card>
  );
}

function Lookup({ code }: { code: string }) {
  const intl = useIntl();
  const logic = useScreenMachine('visitArrival');
  const actor = useActorRef(logic, { input: { code } });
  const outcome = useSettledSelector(actor, (s) => (s.status === 'done' ? s.output : undefined));
  if (!outcome) return <Spinner label={intl.formatMessage({ id: 'processVisit.looking' })} />;
  if (outcome.kind === 'refused' && outcome.code === 'unknown' && outcome.problem)
    return (
      <Alert
        data-testid="visit-refusal"
        data-code={outcome.problem.code}
        message={errorText(intl, outcome.problem.code, { serverText: outcome.problem.text })}
      />
    );
  if (outcome.kind === 'refused') return <Refusal code={outcome.code} />;
  return <ArrivedVisit arrival={outcome.arrival} />;
}

/**
 * ProcessVisit (process-visit, reception): scan the arriving person's QR with the camera, or type their code;
 * today's visit shows with a one-tap check-in or check-out.
 */
export function ProcessVisit() {
  const intl = useIntl();
  const video = useRef<HTMLVideoElement>(null);
  const [scanning, setScanning] = useState(false);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [typed, setTyped] = useState('');
  // Each reading gets its own lookup, even the same code twice.
  const [reading, setReading] = useState<{ code: string; n: number } | null>(null);

  useEffect(() => {
    if (!scanning || !video.current) return;
    return startQrScan(
      video.current,
      (code) => {
        setScanning(false);
        setReading((last) => ({ code, n: (last?.n ?? 0) + 1 }));
      },
      () => {
        setScanning(false);
        setCameraFailed(true);
      },
    );
  }, [scanning]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = typed.trim();
    if (code) setReading((last) => ({ code, n: (last?.n ?? 0) + 1 }));
  };

  return (
    <section data-screen="ProcessVisit" className="mx-auto flex max-w-xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.ProcessVisit" />
      </h1>
      <Card>
        <p className="text-slate-700">
          <FormattedMessage id="processVisit.intro" />
        </p>
        <div className={scanning ? 'mt-4' : 'hidden'}>
          <video
            ref={video}
            muted
            playsInline
            className="aspect-[4/3] w-full rounded-lg bg-slate-900 object-cover"
            aria-label={intl.formatMessage({ id: 'processVisit.camera' })}
          />
        </div>
        {cameraFailed && (
          <Alert className="mt-4" message={intl.formatMessage({ id: 'processVisit.cameraFailed' })} />
        )}
        <div className="mt-4">
          {scanning ? (
            <Button variant="secondary" onClick={() => setScanning(false)}>
              <FormattedMessage id="processVisit.stop" />
            </Button>
          ) : (
            <Button
              data-testid="process-visit-scan"
              onClick={() => {
                setCameraFailed(false);
                setScanning(true);
              }}
            >
              <FormattedMessage id="processVisit.scan" />
            </Button>
          )}
        </div>
        <form onSubmit={submit} className="mt-6 flex items-end gap-2">
          <Field
            className="flex-1"
            label={intl.formatMessage({ id: 'processVisit.code' })}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            data-testid="process-visit-code"
          />
          <Button type="submit" variant="secondary">
            <FormattedMessage id="processVisit.find" />
          </Button>
        </form>
      </Card>
      <div aria-live="polite">{reading && <Lookup key={reading.n} code={reading.code} />}</div>
    </section>
  );
}
