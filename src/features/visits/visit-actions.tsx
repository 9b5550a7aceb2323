import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { displayDateIn, isVisitDay } from '../../../contract/domain/visits';
import type { visitMachine } from '../../../machines/visit.machine';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Refusal } from './parts';

export type VisitActor = ActorRefFrom<typeof visitMachine>;

/** The error code named by the active state's meta, if any. */
export function errorCodeOf(snapshot: { getMeta(): Record<string, unknown> }): string | undefined {
  for (const meta of Object.values(snapshot.getMeta())) {
    const code = (meta as { errorCode?: unknown } | undefined)?.errorCode;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Check-in, check-out and cancel where the role and the visit's state allow (spec §4 actions). Cancelling asks
 * once more, in the kit's dialog (focus kept inside, Escape keeps the visit, the focus back on Cancel); a refusal shows the server's reason and offers to load the visit again.
 */
export function VisitActions({
  actor,
  reception,
  via,
}: {
  actor: VisitActor;
  reception: boolean;
  via: 'kiosk' | 'reception';
}) {
  const view = useSelector(actor, (s) => ({
    requested: s.matches('requested'),
    accepted: s.matches('accepted'),
    checkedIn: s.matches('checkedIn'),
    busy: s.hasTag('busy'),
    refused: s.matches('refused') || s.matches('failed'),
  }));
  const code = useSelector(actor, errorCodeOf);
  const reason = useSelector(actor, (s) => s.context.reason);
  const visit = useSelector(actor, (s) => s.context.visit);
  // Check-in is for today's visits (the server refuses another day's: visit_not_today); another day's says when.
  const today = visit ? isVisitDay(visit, new Date()) : true;
  const [confirming, setConfirming] = useState(false);
  // Not offered once checked in (the server would refuse: visit_already_has_checkins); a page loaded before the
  // check-in still offers it, and then shows the server's reason.
  const canCancel = view.requested || view.accepted;

  return (
    <div className="flex flex-col gap-2">
      {view.refused && (
        <>
          <Refusal code={code} reason={reason} />
          <Button variant="secondary" size="sm" onClick={() => actor.send({ type: 'visit.reload' })}>
            <FormattedMessage id="visits.reload" />
          </Button>
        </>
      )}
      <div className="flex flex-wrap gap-2">
        {reception && view.accepted && !today && visit && (
          <p className="text-sm text-slate-700" data-testid="visit-check-in-day">
            <FormattedMessage
              id="visits.checkInOnDay"
              values={{ date: displayDateIn(new Date(visit.expected_at), visit.location.timezone) }}
            />
          </p>
        )}
        {reception && view.accepted && today && (
          <Button
            size="sm"
            disabled={view.busy}
            data-testid="visit-check-in"
            onClick={() => actor.send({ type: 'visit.checkIn', via })}
          >
            <FormattedMessage id="visits.checkIn" />
          </Button>
        )}
        {reception && view.checkedIn && (
          <Button
            size="sm"
            disabled={view.busy}
            data-testid="visit-check-out"
            onClick={() => actor.send({ type: 'visit.checkOut', via })}
          >
            <FormattedMessage id="visits.checkOut" />
          </Button>
        )}
        {canCancel && (
          <Button
            size="sm"
            variant="secondary"
            disabled={view.busy}
            data-testid="visit-cancel"
            onClick={() => setConfirming(true)}
          >
            <FormattedMessage id="visits.cancel" />
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={canCancel && confirming}
        heading={<FormattedMessage id="visits.cancelHeading" />}
        description={<FormattedMessage id="visits.cancelDetail" />}
        confirmLabel={<FormattedMessage id="visits.cancelConfirm" />}
        cancelLabel={<FormattedMessage id="visits.cancelKeep" />}
        confirmTestId="visit-cancel-confirm"
        data-testid="visit-cancel-dialog"
        onConfirm={() => {
          setConfirming(false);
          actor.send({ type: 'visit.cancel' });
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
