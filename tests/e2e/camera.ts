import { resolve } from 'node:path';
import { headlessShellPath } from '../support/chromium.mjs';

// Chromium's launch options for the journeys: a phone-like browser whose camera is Chromium's fake device
// playing a Y4M video of tests/fixtures/generated/ (npm run fixtures builds them). playwright.config.ts gives
// every journey the specimen document; tests/e2e/liveness.spec.ts a head turning and tilting. The browser is
// chromium-headless-shell (as Playwright's own headless runs): the journeys are CPU-bound on 2 cores, and the
// full browser spent a third of the run's CPU drawing its own window (tab strip, compositor) in headless mode.
export function chromiumWithCamera(video: string) {
  return {
    executablePath: headlessShellPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${resolve('tests/fixtures/generated', video)}`,
    ],
  };
}
