import type { ReactNode } from 'react';
import type { Layout, ScreenName } from '../../domain/screens';
import { AppHeader, OnboardingHeader } from './header';
import type { MenuEntry } from './menu-entry';

/**
 * The header and main area around a screen, by its layout. The app draws every screen in it, and so does the
 * server's first paint of Welcome and Landing (src/app/shell.tsx), so that both are the same elements.
 */
export function ScreenFrame({
  screen,
  layout,
  menu,
  onLogout,
  children,
}: {
  /** The screen drawn (named on the main element, where the journeys read which screen they checked). */
  screen?: ScreenName;
  layout: Layout;
  menu: readonly MenuEntry[];
  onLogout?: () => void;
  children: ReactNode;
}) {
  if (layout === 'bare') return children;
  return (
    <>
      {layout === 'app' ? (
        <AppHeader menu={menu} onLogout={onLogout} />
      ) : (
        <OnboardingHeader onLogout={onLogout} />
      )}
      <main
        id="main"
        data-route={screen}
        className={layout === 'app' ? 'mx-auto max-w-5xl px-4 py-6' : 'mx-auto max-w-xl px-4 py-6'}
      >
        {children}
      </main>
    </>
  );
}
