import { expect, type Page, test } from '@playwright/test';

// No screen trips the Content-Security-Policy (server/security-headers.ts). Every page (the portal's and the
// identity provider's) records each `securitypolicyviolation` event from its first script on, and Chromium's console
// errors about the policy are collected too: a violation anywhere fails the journey. The journey walks the main
// screens: Welcome, the login page, Landing, and the first enrolment steps, by which time arktype (the contract's
// schemas) has loaded and validated API answers.

const violationsKey = '__cspViolations';

async function watchPolicy(page: Page): Promise<string[]> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /content security policy/i.test(message.text())) {
      console.push(message.text());
    }
  });
  await page.addInitScript((key) => {
    const found: string[] = [];
    Object.defineProperty(window, key, { value: found });
    document.addEventListener('securitypolicyviolation', (event) => {
      found.push(
        `${event.violatedDirective} ${event.blockedURI || '(inline or eval)'} at ${location.pathname}`,
      );
    });
  }, violationsKey);
  return console;
}

async function expectNoViolation(page: Page, consoleErrors: string[]) {
  const events = await page.evaluate((key) => [...((window as never)[key] as string[])], violationsKey);
  expect([...events, ...consoleErrors]).toEqual([]);
}

test('Welcome, login, Landing and the first enrolment steps run under the CSP without a violation', async ({
  page,
}) => {
  const consoleErrors = await watchPolicy(page);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoViolation(page, consoleErrors);

  await page.getByTestId('login').click();
  await expect(page.getByLabel(/^usuario/i)).toBeVisible();
  await expectNoViolation(page, consoleErrors);

  // An account no other journey enrols (SEED_NEWCOMERS in playwright.config.ts).
  await page.getByLabel(/^usuario/i).fill('newcomer-29');
  await page.getByLabel(/^contraseña/i).fill('newcomer-29');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByTestId('enrolment-start')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoViolation(page, consoleErrors);

  await page.getByTestId('enrolment-start').click();
  await expect(page).toHaveURL(/\/privacy-onboarding$/);
  await expect(page.getByTestId('terms')).toBeVisible();
  await expectNoViolation(page, consoleErrors);

  await page.getByLabel(/acepto las condiciones/i).check();
  await page.getByTestId('privacy-accept').click();
  await expect(page).toHaveURL(/\/register-documents$/);
  await page.getByLabel('DNI o tarjeta de identidad').check();
  await page.getByTestId('documents-continue').click();
  await expect(page.getByTestId('capture-take').or(page.getByTestId('capture-use'))).toBeVisible();
  await expectNoViolation(page, consoleErrors);

  // A reload of an enrolment step: the stored session and the enrolment snapshot are read again.
  await page.reload();
  await expect(page.getByTestId('capture-take').or(page.getByTestId('capture-use'))).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoViolation(page, consoleErrors);
});
