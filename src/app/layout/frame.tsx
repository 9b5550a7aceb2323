import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { cn } from '../../components/ui/cn';
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
  const main = useRef<HTMLElement>(null);
  useFocusKeptOnScreenChange(main, screen);
  useFocusKeptInScreen(main, layout);
  if (layout === 'bare') return children;
  return (
    <>
      {layout === 'app' ? (
        <AppHeader menu={menu} onLogout={onLogout} />
      ) : (
        <OnboardingHeader onLogout={onLogout} />
      )}
      <main
        ref={main}
        id="main"
        data-route={screen}
        // Focused only by script (below), never a Tab stop: the ring would frame the whole screen.
        tabIndex={-1}
        className={cn('mx-auto px-4 py-6 outline-none', layout === 'app' ? 'max-w-5xl' : 'max-w-xl')}
      >
        {children}
      </main>
    </>
  );
}

/**
 * When the screen changes and the element that had the focus went with the old screen (the button that moved on),
 * the focus goes to the new screen's main area: the next Tab starts at the top of the new screen instead of after
 * the place the old button was, or outside the page, and a screen reader is where the screen is. A screen that
 * put the focus somewhere itself keeps it; the first screen of a page load keeps the browser's start.
 */
function useFocusKeptOnScreenChange(main: RefObject<HTMLElement | null>, screen: ScreenName | undefined) {
  const shown = useRef(screen);
  useEffect(() => {
    if (shown.current === screen) return;
    shown.current = screen;
    const focused = document.activeElement;
    if (!focused || focused === document.body || !focused.isConnected)
      main.current?.focus({ preventScroll: true });
  }, [main, screen]);
}

/**
 * Within a screen, when the element that had the focus goes (a form replaced by its result, a button its action
 * took away), the focus goes to the main area instead of falling to the page itself, where the next Tab would start
 * again at the header.
 */
export function useFocusKeptInScreen(main: RefObject<HTMLElement | null>, layout?: Layout) {
  useEffect(() => {
    const root = main.current;
    if (!root || layout === 'bare') return;
    let last: Element | null = null;
    const track = (event: FocusEvent) => {
      last = event.target instanceof Element ? event.target : null;
    };
    const observer = new MutationObserver(() => {
      const focused = document.activeElement;
      if (last && !last.isConnected && (!focused || focused === document.body)) {
        last = null;
        root.focus({ preventScroll: true });
      }
    });
    root.addEventListener('focusin', track);
    observer.observe(root, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      root.removeEventListener('focusin', track);
    };
  }, [main, layout]);
}
