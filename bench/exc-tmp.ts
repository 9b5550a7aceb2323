import { chromium, devices } from '@playwright/test';
import { browserPath } from '../tests/support/chromium.mjs';
import { lighthouseScreens, startPortal } from './lighthouse';

const names = process.argv[2]?.split(',') ?? ['UserHome'];
const { url: portal, stop } = await startPortal(8642);
const browser = await chromium.launch({ executablePath: browserPath() });
for (const target of lighthouseScreens(names)) {
  const signIn = await browser.newContext(devices['Pixel 7']);
  const page = await signIn.newPage();
  await page.goto(portal);
  if (target.username) {
    await page.getByTestId('login').click();
    await page.locator('#username').fill(target.username);
    await page.locator('#password').fill(target.username);
    await page.locator('button[type=submit]').click();
    await page.waitForURL((url) => !/^\/(auth|callback)\b/.test(url.pathname), { timeout: 60_000 });
    await page.locator('main h1').first().waitFor({ timeout: 60_000 });
  }
  const storageState = await signIn.storageState();
  await signIn.close();
  const context = await browser.newContext({ ...devices['Pixel 7'], storageState });
  const cold = await context.newPage();
  cold.on('console', (m) => console.log('CONSOLE', m.type(), m.text().slice(0, 200)));
  const cdp = await context.newCDPSession(cold);
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.setPauseOnExceptions', { state: 'all' });
  cdp.on('Debugger.paused', async (e: any) => {
    const d = e.data ?? {};
    console.log('PAUSED', e.reason, d.className ?? '', (d.description ?? '').split('\n')[0].slice(0, 160));
    for (const f of e.callFrames.slice(0, 8)) console.log('   ', f.functionName || '(anon)', f.url.replace(/.*\//, ''), f.location.lineNumber + ':' + f.location.columnNumber);
    await cdp.send('Debugger.resume');
  });
  await cold.goto(`${portal}${target.path}`);
  await cold.locator('main h1').first().waitFor({ timeout: 60_000 });
  await cold.waitForLoadState('networkidle');
  console.log('== done', target.screen);
  await context.close();
}
await browser.close();
await stop();
