import { lazy, Suspense, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { Button } from '../../components/ui/button';
import { MenuIcon } from '../../components/ui/icons';
import type { MenuEntry } from './menu-entry';

// The panel (a Radix dialog) is downloaded the first time someone opens the menu, not with the page.
const MenuPanel = lazy(() => import('./menu-panel'));

/** The menu toggle and its panel; the entries a person sees depend on their rights (spec §2). */
export function MainMenu({ entries }: { entries: readonly MenuEntry[] }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={toggle}
        variant="ghost"
        size="icon"
        aria-label={intl.formatMessage({ id: 'header.menu' })}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="menu-toggle"
        onPointerEnter={() => setWanted(true)}
        onFocus={() => setWanted(true)}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <MenuIcon />
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <MenuPanel
            open={open}
            onOpenChange={setOpen}
            entries={entries}
            // The toggle is not a Radix trigger (the panel loads later), so focus is handed back by hand.
            onClosed={() => toggle.current?.focus()}
          />
        </Suspense>
      )}
    </>
  );
}
