import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { Button } from './button';
import { Dialog, DialogContent } from './dialog';

/**
 * "Are you sure?" on the kit's dialog: a heading, what will happen, an optional field (children) and two buttons,
 * the confirming one last (first on a phone, under the thumb). The buttons sit in a form, so Enter in a field
 * confirms; Escape, a click outside and the cancel button all cancel. The screen's machine decides what both do.
 */
export function ConfirmDialog({
  open,
  heading,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  tone = 'danger',
  confirmDisabled = false,
  confirmTestId,
  children,
  ...props
}: Omit<ComponentProps<typeof DialogContent>, 'heading' | 'description' | 'children' | 'onSubmit'> & {
  open: boolean;
  heading: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  tone?: 'danger' | 'primary';
  confirmDisabled?: boolean;
  confirmTestId?: string;
  children?: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmDisabled) onConfirm();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent heading={heading} description={description} {...props}>
        <form onSubmit={submit} className="flex flex-col gap-6">
          {children}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onCancel}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={tone} disabled={confirmDisabled} data-testid={confirmTestId}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
