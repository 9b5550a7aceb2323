import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from './cn';

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-5 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        primary: 'bg-brand text-brand-fg hover:bg-brand-strong',
        secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
        ghost: 'text-slate-700 hover:bg-slate-100',
        danger: 'bg-red-700 text-white hover:bg-red-800',
      },
      size: {
        md: 'h-11 px-4 text-base',
        sm: 'h-9 px-3 text-sm',
        icon: 'size-11',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

/**
 * A button. A link that looks like one is an `<a>` (or wouter's Link) with `buttonVariants()`: no `asChild`,
 * whose Radix Slot would weigh on every first screen for no caller.
 *
 * `loading`: the work the button started is under way. The button is disabled and `aria-busy`, and shows a
 * spinner that is only a picture: the button keeps its own text as its name, so a screen reader hears the same
 * button, busy, instead of a nameless status inside it.
 */
export function Button({
  className,
  variant,
  size,
  type = 'button',
  loading = false,
  disabled,
  children,
  ...props
}: ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { loading?: boolean }) {
  return (
    <button
      data-slot="button"
      type={type}
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && (
        <span
          aria-hidden="true"
          data-slot="button-spinner"
          className="size-5 shrink-0 animate-spin rounded-full border-[3px] border-current/30 border-t-current"
        />
      )}
      {children}
    </button>
  );
}
