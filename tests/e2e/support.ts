import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const port = Number(process.env.E2E_PORT ?? 8090);
export const demoUrl = `http://demo.localhost:${port}`;

/** No axe violations on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

export async function brandColourOf(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);
}
