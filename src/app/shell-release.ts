import { useLayoutEffect } from 'react';

// The server answers Welcome and Landing with their first paint already in the HTML (`#shell`, drawn by
// src/app/shell.tsx), and the app renders into `#root`, hidden meanwhile. When the app's screen has rendered, the
// drawing gives way to it in the same frame (a layout effect runs before the browser paints): the same elements in
// the same places, so nothing moves. Without a shell (any other address) this does nothing.

export const SHELL_ID = 'shell';

/** Removes the server's first paint and shows the app. */
export function releaseShell(doc: Document = document): void {
  const shell = doc.getElementById(SHELL_ID);
  const root = doc.getElementById('root');
  if (root?.hidden) root.hidden = false;
  shell?.remove();
}

/** Rendered beside a screen: once the screen is on the page, the shell goes. */
export function ReleaseShell(): null {
  useLayoutEffect(() => releaseShell(), []);
  return null;
}
