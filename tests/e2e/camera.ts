import { resolve } from 'node:path';

// Chromium's launch options for the journeys: a phone-like browser whose camera is Chromium's fake device
// playing a Y4M video of tests/fixtures/generated/ (npm run fixtures builds them). playwright.config.ts gives
// every journey the specimen document; tests/e2e/liveness.spec.ts a head turning and tilting.
export function chromiumWithCamera(video: string) {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
