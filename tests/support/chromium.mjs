// Where the Debian Chromium binaries are (scripts/ensure-chromium.mjs installs them).

/** The full browser: Lighthouse and the bench, which measure what a phone's browser does. */
export const browserPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The headless shell: the journeys, which need a browser engine but no browser window. */
export const headlessShellPath = () =>
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/lib/chromium/chromium-headless-shell';
