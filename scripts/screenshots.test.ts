import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR, SCREENSHOT_SCREENS, screenshotPath } from './screenshot-list';

// The README's gallery (npm run screenshots): every listed screen has its picture and is shown, and the README
// shows no picture that is missing.
const readme = readFileSync('README.md', 'utf8');
const shown = [...readme.matchAll(/<img\s[^>]*src="([^"]+)"/g)].map((match) => match[1] as string);

describe('the README screenshots', () => {
  it.each(SCREENSHOT_SCREENS)('%s has a picture the README shows', (screen) => {
    const path = screenshotPath(screen);
    expect(existsSync(path), `${path} is missing: npm run screenshots`).toBe(true);
    expect(shown).toContain(path);
  });

  it('shows only pictures that exist', () => {
    expect(shown.filter((path) => path.startsWith(`${SCREENSHOT_DIR}/`)).length).toBeGreaterThan(0);
    expect(shown.filter((path) => !existsSync(path))).toEqual([]);
  });

  it('names each screen in the alt text of its picture', () => {
    for (const screen of SCREENSHOT_SCREENS) {
      expect(readme).toMatch(new RegExp(`src="${screenshotPath(screen)}"[^>]*alt="${screen}\\b`));
    }
  });
});
