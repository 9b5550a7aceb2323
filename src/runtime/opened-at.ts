// The instant a screen opened, for a screen whose first call asks for what happened up to that instant (AuditAccesses'
// range ends when it opens: its first page and its first export share it). On the page's first screen, its first
// calls left before its first render (src/actors/preload.ts), built with the instant the preload took: the screen
// must ask with that one, or its own call would differ from the one already under way and go out again.

interface Mark {
  at: Date;
  /** Whether the preload's calls made at `at` are still there for this screen to take. */
  holds: () => boolean;
}

let mark: Mark | undefined;

/** The preload (src/actors/preloaded-calls.ts) tells the instant its calls are built with. */
export function markOpened(at: Date, holds: () => boolean): void {
  mark = { at, holds };
}

/** The instant the screen opens: the preload's while its calls are there to take, now otherwise. */
export function screenOpenedAt(): Date {
  return mark?.holds() ? mark.at : new Date();
}

/**
 * Runs `render` with `at` as the instant the screen opened (the server's paint of a screen with the person's data,
 * src/app/shell-data.tsx, whose page then tells the app that instant); the render must be synchronous.
 */
export function renderOpenedAt<T>(at: Date, render: () => T): T {
  const before = mark;
  mark = { at, holds: () => true };
  try {
    return render();
  } finally {
    mark = before;
  }
}
