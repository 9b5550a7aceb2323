import type { ComponentProps } from 'react';
import { cn } from './cn';

/**
 * A file chooser that fits the narrowest phone: the browser's own control is as wide as its button and the name of
 * the file chosen, past 360 px with a long name; here it takes the width it is given and cuts the name instead.
 * The button looks like the portal's secondary buttons (44 px high, a target a thumb finds).
 */
export function FileInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <input
      type="file"
      className={cn(
        'block w-full min-w-0 max-w-full text-base text-slate-800 file:me-3 file:h-11 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:font-medium disabled:opacity-60',
        className,
      )}
      {...props}
    />
  );
}
