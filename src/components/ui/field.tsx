import { type ComponentProps, useId } from 'react';
import { cn } from './cn';

/**
 * A labelled input with its error announced and tied to it (aria-describedby). The input takes its field's width and
 * no more (`w-full min-w-0`): beside a button in a row, an input's own width (~20 characters) would push the row
 * past a 360-px phone's card.
 */
export function Field({
  label,
  error,
  hint,
  className,
  id,
  ...props
}: ComponentProps<'input'> & { label: string; error?: string; hint?: string }) {
  const generated = useId();
  const inputId = id ?? generated;
  const describedBy =
    [error && `${inputId}-error`, hint && `${inputId}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div data-slot="field" className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="h-11 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-base outline-none focus:border-brand focus:ring-2 focus:ring-brand/30 read-only:bg-slate-100 aria-[invalid=true]:border-red-600"
        {...props}
      />
      {hint && (
        <p id={`${inputId}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
