import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { Notice } from '../../../machines/notifications.machine';
import { cn } from '../../components/ui/cn';
import { CloseIcon } from '../../components/ui/icons';
import { fallbackText, messageText, referenceText, showsReference } from '../../i18n/error-text';
import { useRuntime } from '../../runtime/context';

const tone: Record<Notice['level'], string> = {
  info: 'border-sky-300 bg-sky-50 text-sky-950',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  warning: 'border-amber-300 bg-amber-50 text-amber-950',
  error: 'border-red-300 bg-red-50 text-red-950',
};

/**
 * The notifications on screen, announced to screen readers; errors interrupt, the rest wait. A notice is never
 * empty: an id without words shows the server's text it carries, or the catalogue's unknown problem.
 */
export function Toaster() {
  const intl = useIntl();
  const { notifications } = useRuntime();
  const notices = useSelector(notifications, (s) => s.context.notices);
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4">
      {notices.map((notice) => (
        <div
          key={notice.id}
          role={notice.level === 'error' || notice.level === 'warning' ? 'alert' : 'status'}
          data-testid="notice"
          data-level={notice.level}
          className={cn(
            'pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-xl border px-4 py-3 shadow-md',
            tone[notice.level],
          )}
        >
          <div className="flex-1">
            <p className="text-sm">
              {'messageId' in notice
                ? messageText(intl, notice.messageId, notice.values, notice.fallback)
                : // The server's own text (a problem without a code): inside the person's language sentence.
                  fallbackText(intl, notice.text)}
            </p>
            {notice.reference &&
            showsReference(intl, 'messageId' in notice ? notice.messageId : undefined) ? (
              <p className="mt-1 select-all break-all text-xs opacity-80" data-testid="notice-reference">
                {referenceText(intl, notice.reference)}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            className="rounded p-0.5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current [&_svg]:size-4"
            aria-label={intl.formatMessage({ id: 'common.dismiss' })}
            onClick={() => notifications.send({ type: 'notice.dismiss', id: notice.id })}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
