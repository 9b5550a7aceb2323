// Setup file of the unit tests. Most of them are plain logic and run in Node; the files that need a browser
// (components, storage, location) say so in their first line (`// @vitest-environment jsdom`), and get
// Testing Library's matchers and clean-up here. A jsdom per file costs about 1.5 s of set-up on 2 cores.
import { afterEach } from 'vitest';

if (typeof window !== 'undefined') {
  await import('@testing-library/jest-dom/vitest');
  const { cleanup, configure } = await import('@testing-library/react');
  // findBy* and waitFor give up after 1 s by default: on 2 busy cores a render can take longer than that.
  // The wait ends as soon as the expectation holds, so a longer limit costs nothing when the test passes.
  configure({ asyncUtilTimeout: 10_000 });

  afterEach(() => {
    cleanup();
    localStorage.clear();
  });
}
