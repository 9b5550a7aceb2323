import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Visit, VisitHistoryEvent, VisitStatus } from '../../../contract/api/visits';
import { displayDateIn, displayDateTimeIn, timeIn } from '../../../contract/domain/visits';
import { Alert } from '../../components/ui/alert';
import { cn } from '../../components/ui/cn';
import type { Session } from '../../domain/session';
import { errorText, hasErrorWords } from '../../i18n/error-text';
import { useRuntime } from '../../runtime/context';

/** The signed-in person (the visit screens are guarded: there is one). */
export function useSession(): Session | null {
  const { session } = useRuntime();
  return useSelector(session, (s) => s.context.session);
}

export const isReceptionist = (session: Session | null) =>
  session?.roles.includes('post_visits_all') === true;

const STATUS_STYLE: Record<VisitStatus, string> = {
  requested: 'bg-amber-100 text-amber-900',
  accepted: 'bg-sky-100 text-sky-900',
  checked_in: 'bg-emerald-100 text-emerald-900',
  checked_out: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-red-100 text-red-900',
};

export function StatusBadge({ status }: { status: VisitStatus }) {
  return (
    <span
      data-testid="visit-status"
      data-status={status}
      className={cn('inline-flex rounded-full px-2.5 py-0.5 text-sm font-medium', STATUS_STYLE[status])}
    >
      <FormattedMessage id={`visits.status.${status}`} />
    </span>
  );
}

/** The visit's reason or event, or "Visit" when none was given. */
export function VisitTitle({ visit }: { visit: Pick<Visit, 'title'> }) {
  return visit.title ? visit.title : <FormattedMessage id="visits.untitled" />;
}

/** "DD/MM/YYYY HH:mm–HH:mm" in the facility's timezone (spec §9; times are stored in UTC). */
export function VisitWhen({ visit }: { visit: Visit }) {
  const tz = visit.location.timezone;
  const start = new Date(visit.expected_at);
  const end = new Date(visit.leaving_at);
  return (
    <span data-testid="visit-when">
      {displayDateIn(start, tz)} {timeIn(start, tz)}–{timeIn(end, tz)}
    </span>
  );
}

const ACTOR_KINDS = new Set(['automatic', 'kiosk', 'terminal']);

/** The history (spec §4): each event with who and when, in the facility's timezone. */
export function VisitHistory({ visit }: { visit: Visit }) {
  return (
    <ol className="flex flex-col gap-3" data-testid="visit-history">
      {visit.history.map((event: VisitHistoryEvent, index) => {
        const who = event.actor ?? '';
        return (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end.
            key={index}
            data-action={event.action}
            className="rounded-lg border border-slate-200 bg-white px-4 py-3"
          >
            <p className="font-medium">
              <FormattedMessage
                id={`visits.history.${event.action}`}
                values={{
                  who: ACTOR_KINDS.has(who) ? <FormattedMessage id={`visits.actor.${who}`} /> : who,
                }}
              />
            </p>
            <p className="text-sm text-slate-700">
              <time dateTime={event.datetime}>
                {displayDateTimeIn(new Date(event.datetime), visit.location.timezone)}
              </time>{' '}
              ({visit.location.timezone})
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The code of a refusal (spec §8) as its message; the server's reason beside it when it gave one. A code without
 * words of its own shows the server's reason in the language's sentence instead (never an empty line).
 */
export function Refusal({ code, reason }: { code: string | undefined; reason?: string | null }) {
  const intl = useIntl();
  const words = hasErrorWords(intl, code);
  return (
    <Alert
      data-testid="visit-refusal"
      data-code={code}
      message={
        !code ? intl.formatMessage({ id: 'visits.failed' }) : errorText(intl, code, { serverText: reason })
      }
    >
      {reason && words && <p className="text-sm">{reason}</p>}
    </Alert>
  );
}
