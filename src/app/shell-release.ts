import { useLayoutEffect } from 'react';

// The server answers a screen's address with its first paint already in the HTML (`#shell`, drawn by
// src/app/shell.tsx), and the app renders into `#root`, hidden meanwhile. When the app's screen has rendered, the
// drawing gives way to it in the same frame (a layout effect runs before the browser paints): the same elements in
// the same places, so nothing moves. A paint drawn with the person's data (`data-with-data`, src/app/shell-data.tsx)
// gives way once the app's screen shows that data too: nothing in it still loading (`aria-busy`), and as many
// pictures shown as the paint had (the QR); else the person would see the data go and come back. Without a shell
// (any other address) this does nothing.

export const SHELL_ID = 'shell';

/** How long a paint with data waits for the app's screen to show it, at most. */
export const DATA_RELEASE_MS = 3000;

/** Removes the server's first paint and shows the app. */
export function releaseShell(doc: Document = document): void {
  const shell = doc.getElementById(SHELL_ID);
  const root = doc.getElementById('root');
  if (root?.hidden) root.hidden = false;
  shell?.remove();
}

const shownImages = (element: Element) =>
  [...element.querySelectorAll('main img')].filter(
    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
  ).length;

/** Whether the app's screen in `root` shows what the paint with data shows. */
export function showsThePaintsData(root: Element, shell: Element): boolean {
  return (
    root.querySelector('main') !== null &&
    root.querySelector('main [aria-busy="true"]') === null &&
    shownImages(root) >= shell.querySelectorAll('main img').length
  );
}

/**
 * Releases the paint now, or for a paint with data once the app's screen shows its data (or after DATA_RELEASE_MS).
 * Returns what stops waiting.
 */
export function releaseWhenShown(doc: Document = document): () => void {
  const shell = doc.getElementById(SHELL_ID);
  const root = doc.getElementById('root');
  const drawn = root?.querySelector('[data-screen]')?.getAttribute('data-screen');
  if (
    !shell ||
    !root ||
    !shell.hasAttribute('data-with-data') ||
    // The app drew another screen (the person was sent elsewhere): nothing to wait for.
    (drawn && drawn !== shell.getAttribute('data-paint')) ||
    showsThePaintsData(root, shell)
  ) {
    releaseShell(doc);
    return () => undefined;
  }
  const check = () => {
    if (showsThePaintsData(root, shell)) done();
  };
  const observer = new MutationObserver(check);
  const timer = setTimeout(() => done(), DATA_RELEASE_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
    root?.removeEventListener('load', check, true);
  }
  function done() {
    stop();
    releaseShell(doc);
  }
  observer.observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-busy', 'src'],
  });
  root.addEventListener('load', check, true);
  return stop;
}

/** Rendered beside a screen: once the screen is on the page (with the paint's data, if it had any), the shell goes. */
export function ReleaseShell(): null {
  useLayoutEffect(() => releaseWhenShown(), []);
  return null;
}
