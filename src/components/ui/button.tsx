import { cva, type VariantProps } from 'class-variance-authority';
import { type ComponentProps, useState } from 'react';
import { cn } from './cn';

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:size-5 [&_svg]:shrink-0',
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
 * `loading`: the work the button started is under way. The button is unavailable and `aria-busy`, and shows a
 * spinner that is only a picture: the button keeps its own text as its name, so a screen reader hears the same
 * button, busy, instead of a nameless status inside it.
 *
 * Unavailable (`disabled` or `loading`), a button is `disabled`, out of the tab order, unless it has the focus: the
 * one just pressed, whose work makes it unavailable. A disabled element loses the focus to the page, and a keyboard
 * user would start again from the top; that one stays focused instead, `aria-disabled` (heard as unavailable, looks
 * the same) and ignoring presses, Enter in its form included, until the focus leaves it.
 */
export function Button({
  className,
  variant,
  size,
  type = 'button',
  loading = false,
  disabled = false,
  children,
  onClick,
  onFocus,
  onBlur,
  ...props
}: ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { loading?: boolean }) {
  const [focused, setFocused] = useState(false);
  const unavailable = disabled || loading;
  return (
    <button
      data-slot="button"
      type={type}
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={unavailable && !focused}
      aria-disabled={(unavailable && focused) || undefined}
      aria-busy={loading || undefined}
      onFocus={(event) => {
        setFocused(true);
        onFocus?.(event);
      }}
      onBlur={(event) => {
        setFocused(false);
        onBlur?.(event);
      }}
      onClick={(event) => {
        // A click while unavailable (the keyboard's, or the one Enter in a field sends to its form's button) does
        // nothing, and submits nothing.
        if (unavailable) event.preventDefault();
        else onClick?.(event);
      }}
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
