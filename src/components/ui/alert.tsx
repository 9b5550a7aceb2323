import type { ComponentProps, ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { cn } from './cn';

export type AlertTone = 'error' | 'warning' | 'info' | 'success';

const TONES: Record<AlertTone, string> = {
  error: 'border-red-200 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  info: 'border-slate-200 bg-slate-50 text-slate-800',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

/**
 * Something the person must know about what just happened. An error or a warning interrupts (`role="alert"`: the
 * person's action failed or needs another go); news and success wait their turn (`role="status"`).
 *
 * It takes its words as a `message` string, not as children: a message that turns out blank (a missing id, a code
 * without words) shows the catalogue's "unknown problem" instead of an empty box. `title` heads the message;
 * `children` add what goes with it (a retry button, the rows at fault, the server's own words).
 */
export function Alert({
  tone = 'error',
  message,
  title,
  className,
  children,
  ...props
}: Omit<ComponentProps<'div'>, 'role' | 'title' | 'children'> & {
  tone?: AlertTone;
  message: string;
  title?: string;
  children?: ReactNode;
}) {
  const intl = useIntl();
  const text = message.trim() === '' ? intl.formatMessage({ id: 'common.errors.unknown' }) : message;
  return (
    <div
      data-slot="alert"
      data-tone={tone}
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      className={cn('flex flex-col gap-2 rounded-lg border p-3', TONES[tone], className)}
      {...props}
    >
      {title && <p className="font-semibold">{title}</p>}
      <p className={!title && children ? 'font-medium' : undefined}>{text}</p>
      {children}
    </div>
  );
}
