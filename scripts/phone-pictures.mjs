// The pictures of docs/phone.md, retaken from a running `npm run start:lan` (its address as the argument): Chromium
// (Debian's) as an Android phone, first the certificate warning a phone shows, then the portal once it is
// accepted. iOS cannot be emulated here: docs/phone.md describes Safari's steps in words.
//   node scripts/phone-pictures.mjs https://192.168.1.23:8443
import { writeFileSync } from 'node:fs';
import { chromium, devices } from '@playwright/test';
import sharp from 'sharp';
import { browserPath } from '../tests/support/chromium.mjs';

const url = process.argv[2];
if (!url?.startsWith('https://')) {
  console.error('Usage: node scripts/phone-pictures.mjs https://<LAN address>:<port>');
  process.exit(2);
}
const OUT = 'docs/phone';
const phone = devices['Pixel 7'];

/** A screenshot as a small PNG (a palette of 64 colours keeps each under 80 KB). */
async function save(page, name) {
  const png = await page.screenshot();
  const small = await sharp(png)
    .resize({ width: 360 })
    .png({ palette: true, colours: 64, compressionLevel: 9 })
    .toBuffer();
  writeFileSync(`${OUT}/${name}.png`, small);
  console.log(`${OUT}/${name}.png: ${small.length} bytes`);
}

const browser = await chromium.launch({ executablePath: browserPath() });
try {
  // The warning: what the phone shows before the certificate is accepted (no ignoreHTTPSErrors here).
  const warned = await browser.newContext({ ...phone, locale: 'en-GB' });
  const warning = await warned.newPage();
  await warning.goto(url).catch(() => undefined);
  await warning.waitForLoadState('load');
  await save(warning, 'android-warning');
  const advanced = warning.locator('#details-button');
  if (await advanced.count()) {
    await advanced.click();
    await save(warning, 'android-proceed');
  }
  await warned.close();

  // Once accepted: the portal, opened on the phone.
  const accepted = await browser.newContext({ ...phone, locale: 'en-GB', ignoreHTTPSErrors: true });
  const portal = await accepted.newPage();
  await portal.goto(url);
  await portal.getByRole('heading').first().waitFor();
  await portal.waitForLoadState('networkidle');
  await save(portal, 'android-portal');
  await accepted.close();
} finally {
  await browser.close();
}
