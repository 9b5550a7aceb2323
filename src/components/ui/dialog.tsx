import * as DialogPrimitive from '@radix-ui/react-dialog';
import { type ComponentProps, type ReactNode, useRef } from 'react';
import { cn } from './cn';

export const Dialog = DialogPrimitive.Root;
export const DialogClose = DialogPrimitive.Close;

/**
 * The focus goes back where it was when the dialog opened (the button that opened it) when it closes. Radix does
 * so only for its own Trigger; the portal's dialogs open from a machine's state, and without this the focus fell to
 * the page itself, so a keyboard user started again from the top. Spread on a Radix Dialog Content.
 */
export function useFocusReturn() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      // Radix calls this before it moves the focus into the dialog: what has it now opened the dialog.
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      if (element?.isConnected) {
        event.preventDefault();
        element.focus();
      }
    },
  };
}

/** A centred modal dialog on the Radix dialog: focus trapped, Escape closes, labelled by its title and text. */
export function DialogContent({
  className,
  heading,
  description,
  children,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { heading: ReactNode; description: ReactNode }) {
  const focusReturn = useFocusReturn();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-4 rounded-2xl bg-white p-6 shadow-xl outline-none',
          className,
        )}
        {...focusReturn}
        {...props}
      >
        <DialogPrimitive.Title className="text-lg font-semibold">{heading}</DialogPrimitive.Title>
        <DialogPrimitive.Description className="text-slate-700">{description}</DialogPrimitive.Description>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
