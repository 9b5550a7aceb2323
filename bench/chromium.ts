import { type Browser, chromium } from '@playwright/test';
import { browserPath } from '../tests/support/chromium.mjs';

/**
 * Debian's Chromium as every bench part drives it: no sandbox (root in a container), no GPU, and none of its own
 * background traffic (component updates, field trials) beside what is measured.
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: browserPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
  });
}
