import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { KIND_OF_TYPE, statusOf } from '../../domain/accreditations';
import { pathFor } from '../../domain/screens';
import {
  AccountGate,
  type AccreditationActor,
  AccreditationProblem,
  KIND_MESSAGES,
  QrImage,
  StatusBadge,
  useAccreditation,
  useWakeLock,
  ValidityWindow,
  viewOf,
} from './parts';

/**
 * AccreditationDetail (accreditation-detail/{accreditationId}, spec §2): the QR, its PDF to save or print, the
 * window DD/MM/YYYY HH:mm (spec §9), extend (a new 15-day window) and revoke with a confirmation (spec §4).
 */
export function AccreditationDetail() {
  const { accreditationId = '' } = useParams<{ accreditationId: string }>();
  return (
    <AccountGate>
      {(accountId) => <Detail key={accreditationId} accountId={accountId} sid={accreditationId} />}
    </AccountGate>
  );
}

function Detail({ accountId, sid }: { accountId: string; sid: string }) {
  const intl = useIntl();
  const actor = useAccreditation(accountId, sid);
  const view = useSelector(actor, viewOf);
  const credential = useSelector(actor, (s) => s.context.credential);
  const holder = useSelector(actor, (s) => s.context.holder);
  const qrImage = useSelector(actor, (s) => s.context.qrImage);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const showing = view === 'active' || view === 'confirmingRevoke';
  useWakeLock(showing && qrImage !== null);
  const kind = credential ? KIND_OF_TYPE[credential.credential_type] : null;

  return (
    <section
      data-screen="AccreditationDetail"
      data-state={JSON.stringify(useSelector(actor, (s) => s.value))}
      className="mx-auto flex w-full max-w-xl flex-col gap-5"
    >
      <Link href={pathFor('MyAccreditations') ?? '/'} className="self-start text-brand-strong underline">
        <FormattedMessage id="accreditation.back" />
      </Link>
      <Card className="flex flex-col gap-4" aria-busy={busy}>
        <div className="flex items-center justify-between gap-3">
          <h1 className="text-2xl font-bold tracking-tight">
            {kind ? (
              <FormattedMessage {...KIND_MESSAGES[kind]} />
            ) : (
              <FormattedMessage id="screen.AccreditationDetail" />
            )}
          </h1>
          {credential && view !== 'loading' && <StatusBadge status={statusOf(credential)} />}
        </div>
        {holder && <p className="text-lg font-medium">{holder}</p>}
        {view === 'loading' && <Spinner label={intl.formatMessage({ id: 'accreditation.loading' })} />}
        {credential && view !== 'loading' && view !== 'notFound' && view !== 'failed' && (
          <>
            {showing && kind === 'qr' && <QrImage image={qrImage} holder={holder} />}
            <ValidityWindow
              startsAt={credential.starts_at}
              endsAt={credential.ends_at}
              status={statusOf(credential)}
              className="text-base font-medium"
            />
            {view === 'revoked' && (
              <p role="status" className="text-slate-800" data-testid="accreditation-revoked">
                <FormattedMessage id="accreditation.revokedText" />
              </p>
            )}
            {showing && kind === 'qr' && <PdfButtons actor={actor} />}
            <Actions actor={actor} />
          </>
        )}
        {(view === 'notFound' || view === 'failed') && <AccreditationProblem actor={actor} />}
      </Card>
    </section>
  );
}

function PdfButtons({ actor }: { actor: AccreditationActor }) {
  const intl = useIntl();
  const preparing = useSelector(actor, (s) => s.hasTag('pdf'));
  const failed = useSelector(actor, (s) => s.matches({ active: { timed: 'pdfFailed' } }));
  return (
    <div className="flex flex-col gap-2">
      <div className="grid grid-cols-2 gap-3">
        <Button
          variant="secondary"
          disabled={preparing}
          onClick={() => actor.send({ type: 'pdf.get', mode: 'download' })}
          data-testid="accreditation-pdf"
        >
          <FormattedMessage id="accreditation.pdf.download" />
        </Button>
        <Button
          variant="secondary"
          disabled={preparing}
          onClick={() => actor.send({ type: 'pdf.get', mode: 'print' })}
          data-testid="accreditation-print"
        >
          <FormattedMessage id="accreditation.pdf.print" />
        </Button>
      </div>
      {preparing && <Spinner label={intl.formatMessage({ id: 'accreditation.pdf.preparing' })} />}
      {failed && (
        <Alert
          message={intl.formatMessage({ id: 'accreditation.error.pdf_unavailable' })}
          data-error-code="pdf_unavailable"
        />
      )}
    </div>
  );
}

function Actions({ actor }: { actor: AccreditationActor }) {
  const intl = useIntl();
  const canExtend = useSelector(actor, (s) => s.can({ type: 'accreditation.extend' }));
  const canRevoke = useSelector(actor, (s) => s.can({ type: 'accreditation.revoke' }));
  const confirming = useSelector(actor, (s) => s.matches('confirmingRevoke'));
  const extending = useSelector(actor, (s) => s.matches('extending'));
  const revoking = useSelector(actor, (s) => s.matches('revoking'));
  const isQr = useSelector(actor, (s) => s.context.credential?.credential_type === 'qr');
  return (
    <div className="flex flex-col gap-3">
      {isQr && (canExtend || extending) && (
        <Button
          onClick={() => actor.send({ type: 'accreditation.extend' })}
          disabled={extending}
          data-testid="accreditation-extend"
        >
          {extending ? <Spinner label={intl.formatMessage({ id: 'accreditation.extending' })} /> : null}
          <FormattedMessage id="accreditation.extend" />
        </Button>
      )}
      {(canRevoke || confirming || revoking) && (
        <Dialog
          open={confirming}
          onOpenChange={(open) => {
            if (open) actor.send({ type: 'accreditation.revoke' });
            else if (actor.getSnapshot().matches('confirmingRevoke')) actor.send({ type: 'revoke.cancel' });
          }}
        >
          <Button
            variant="danger"
            onClick={() => actor.send({ type: 'accreditation.revoke' })}
            disabled={revoking}
            data-testid="accreditation-revoke"
          >
            {revoking ? <Spinner label={intl.formatMessage({ id: 'accreditation.revoking' })} /> : null}
            <FormattedMessage id="accreditation.revoke" />
          </Button>
          <DialogContent
            heading={<FormattedMessage id="accreditation.revokeDialog.title" />}
            description={<FormattedMessage id="accreditation.revokeDialog.text" />}
            data-testid="revoke-dialog"
          >
            <div className="grid grid-cols-2 gap-3">
              <DialogClose asChild>
                <Button variant="secondary" data-testid="revoke-cancel">
                  <FormattedMessage id="accreditation.revokeDialog.cancel" />
                </Button>
              </DialogClose>
              <Button
                variant="danger"
                onClick={() => actor.send({ type: 'revoke.confirm' })}
                data-testid="revoke-confirm"
              >
                <FormattedMessage id="accreditation.revokeDialog.confirm" />
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      )}
      <Link
        href={pathFor('UserHome') ?? '/'}
        className={buttonVariants({ variant: 'ghost', className: 'w-full' })}
      >
        <FormattedMessage id="accreditation.home" />
      </Link>
    </div>
  );
}
