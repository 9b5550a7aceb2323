// V8 compiles a function the first time it is called, on the main thread: on a cold phone the start's scripts
// spent much of their time after the first paint doing that (React DOM, XState, the screen's code, each run once at
// start). Chromium (136 and later) reads this comment on a file's first line as "every function here runs at load"
// and compiles them all while the file streams in, off the main thread. Each chunk of the build is code a page runs
// when it loads it (the first screen's, a screen's, a call module's), so every one carries it. It must be the first
// line, before the header Vite gives the entry (`__vite__mapDeps`), so it is added once the bundle is complete.
import type { OutputBundle } from 'rolldown';
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Puts the compile hint on the first line of every chunk of `bundle` (once). */
export function addCompileHints(bundle: OutputBundle): void {
  for (const file of Object.values(bundle)) {
    if (file.type !== 'chunk' || file.code.startsWith(COMPILE_HINT)) continue;
    file.code = COMPILE_HINT + file.code;
    // A source map's lines move down by one.
    if (file.map) file.map.mappings = `;${file.map.mappings}`;
  }
}

export function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    // After Vite's own changes to the chunks.
    generateBundle: { order: 'post', handler: (_options, bundle) => addCompileHints(bundle) },
  };
}
