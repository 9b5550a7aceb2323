import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { Sheet, SheetContent } from '../../components/ui/sheet';
import type { MenuEntry } from './menu-entry';

export default function MenuPanel({
  open,
  onOpenChange,
  entries,
  onClosed,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entries: readonly MenuEntry[];
  onClosed: () => void;
}) {
  const intl = useIntl();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        heading={<FormattedMessage id="header.menu" />}
        closeLabel={intl.formatMessage({ id: 'header.closeMenu' })}
        data-testid="menu-panel"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <nav aria-label={intl.formatMessage({ id: 'header.menu' })}>
          <ul className="flex flex-col gap-1">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Link
                  href={entry.href}
                  onClick={() => onOpenChange(false)}
                  className="block rounded-lg px-3 py-2.5 text-base hover:bg-brand-soft focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand"
                >
                  <FormattedMessage id={entry.messageId} />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </SheetContent>
    </Sheet>
  );
}
