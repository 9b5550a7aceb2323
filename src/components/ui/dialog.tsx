import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

export const Dialog = DialogPrimitive.Root;
export const DialogClose = DialogPrimitive.Close;

/** A centred modal dialog on the Radix dialog: focus trapped, Escape closes, labelled by its title and text. */
export function DialogContent({
  className,
  heading,
  description,
  children,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { heading: ReactNode; description: ReactNode }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-4 rounded-2xl bg-white p-6 shadow-xl outline-none',
          className,
        )}
        {...props}
      >
        <DialogPrimitive.Title className="text-lg font-semibold">{heading}</DialogPrimitive.Title>
        <DialogPrimitive.Description className="text-slate-700">{description}</DialogPrimitive.Description>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
