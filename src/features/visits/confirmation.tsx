import { useActorRef, useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useParams } from 'wouter';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { hasErrorWords } from '../../i18n/error-text';
import { useScreenMachine } from '../../runtime/machines';
import { Refusal } from './parts';
import { errorCodeOf } from './visit-actions';

/**
 * VisitConfirmation (confirmation/{token}/{visitId}, public): the host accepts or rejects a visitor's request
 * with the mailed link; token_expired, visit_already_accepted and visit_already_rejected each say so.
 */
export function VisitConfirmation() {
  const params = useParams<{ token: string; visitId: string }>();
  const logic = useScreenMachine('visitConfirmation');
  const actor = useActorRef(logic, {
    input: { visitId: params.visitId ?? '', token: params.token ?? '' },
  });
  const view = useSelector(actor, (s) => ({
    asking: s.matches('asking') || s.matches('failed'),
    failed: s.matches('failed'),
    busy: s.hasTag('busy'),
    accepted: s.matches('accepted'),
    rejected: s.matches('rejected'),
  }));
  const code = useSelector(actor, errorCodeOf);
  const problem = useSelector(actor, (s) => s.context.problem);
  const intl = useIntl();

  return (
    <section data-screen="VisitConfirmation" className="mx-auto max-w-xl">
      <Card>
        <h1 className="text-2xl font-semibold">
          <FormattedMessage id="screen.VisitConfirmation" />
        </h1>
        {view.asking && (
          <>
            <p className="mt-2 text-slate-700">
              <FormattedMessage id="confirmation.question" />
            </p>
            {view.failed && (
              <div className="mt-4">
                <Refusal
                  code={problem?.code}
                  reason={problem && !hasErrorWords(intl, problem.code) ? problem.text : null}
                />
              </div>
            )}
            <div className="mt-6 flex flex-wrap gap-3">
              <Button
                disabled={view.busy}
                data-testid="confirmation-accept"
                onClick={() => actor.send({ type: 'visit.accept' })}
              >
                <FormattedMessage id="confirmation.accept" />
              </Button>
              <Button
                variant="secondary"
                disabled={view.busy}
                data-testid="confirmation-reject"
                onClick={() => actor.send({ type: 'visit.reject' })}
              >
                <FormattedMessage id="confirmation.reject" />
              </Button>
            </div>
          </>
        )}
        {view.busy && (
          <p className="mt-4 text-slate-700" aria-live="polite">
            <FormattedMessage id="confirmation.sending" />
          </p>
        )}
        {view.accepted && (
          <p role="status" className="mt-4 font-medium text-emerald-800" data-testid="confirmation-done">
            <FormattedMessage id="confirmation.accepted" />
          </p>
        )}
        {view.rejected && (
          <p role="status" className="mt-4 font-medium text-slate-800" data-testid="confirmation-done">
            <FormattedMessage id="confirmation.rejected" />
          </p>
        )}
        {code && (
          <div className="mt-4">
            <Refusal code={code} />
          </div>
        )}
      </Card>
    </section>
  );
}
