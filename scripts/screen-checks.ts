// npm run screen-checks (run by test:e2e after the journeys): which screens of spec §2 the journeys checked with
// axe and at 360 px wide (tests/e2e/support.ts expectAccessible), in which of the three languages. It prints the
// table (screen × es/en/eu: ✓ checked, a number of pixels past the edge, · not checked) and fails when a screen
// in a language is not checked (with --require-all), or when any check found the page wider than the phone.
// It reads the last Playwright run's record (tests/support/screen-checks.mjs). Without --require-all (a run of
// some journeys only) a screen not checked is told, not failed.
import { type ScreenName, screenNames } from '../src/domain/screens';
import { readScreenChecks } from '../tests/support/screen-checks.mjs';

const LANGUAGES = ['es', 'en', 'eu'] as const;

/** Screens with nothing to check: they draw no content of their own before they move on. */
const NOTHING_TO_CHECK: Partial<Record<ScreenName, string>> = {
  Callback: 'the sign-in return: a spinner while the code is exchanged, then the next screen',
  Silent: 'the token renewal page, inside a hidden frame',
};

const checks = readScreenChecks();
if (checks.length === 0) {
  console.log(
    'screen checks: no record of a journey run (test-results/screen-checks.jsonl); nothing to report',
  );
  process.exit(0);
}

const seen = new Map<string, number>();
for (const check of checks) {
  if (!check.route) continue;
  const key = `${check.route}/${check.lang}`;
  seen.set(key, Math.max(seen.get(key) ?? 0, check.overflow));
}

/** es/en/eu cells of a screen: ✓ checked, +Npx wider than the phone, · not checked. */
const cellsOf = (route: string) =>
  LANGUAGES.map((lang) => {
    const overflow = seen.get(`${route}/${lang}`);
    return overflow === undefined ? '·' : overflow > 0 ? `+${overflow}px` : '✓';
  });
const rows = screenNames.map((screen) => ({ screen, cells: cellsOf(screen) }));

console.log(`\nscreens checked with axe and at 360 px (${checks.length} checks):`);
console.log(`  ${'screen'.padEnd(30)} ${LANGUAGES.map((l) => l.padEnd(7)).join('')}`);
for (const { screen, cells } of rows) {
  const note = NOTHING_TO_CHECK[screen] ? `  (${NOTHING_TO_CHECK[screen]})` : '';
  console.log(`  ${screen.padEnd(30)} ${cells.map((c) => c.padEnd(7)).join('')}${note}`);
}

// Pages outside spec §2 that the journeys checked too (the identity provider's sign-in pages: data-route="sign-in").
const others = [...new Set(checks.map((check) => check.route))].filter(
  (route): route is string => route !== null && !(screenNames as string[]).includes(route),
);
for (const route of others) {
  console.log(
    `  ${route.padEnd(30)} ${cellsOf(route)
      .map((c) => c.padEnd(7))
      .join('')}  (not a screen of spec §2)`,
  );
}

const problems: string[] = [];
const unnamed = checks.filter((check) => !check.route);
for (const check of unnamed)
  problems.push(`a check outside any screen (no main[data-route]) in ${check.journey}`);
for (const check of checks) {
  if (check.overflow > 0)
    problems.push(
      `${check.route} (${check.lang}) is ${check.overflow}px wider than 360 px: ${check.journey}`,
    );
}
const missing: string[] = [];
for (const screen of screenNames) {
  if (NOTHING_TO_CHECK[screen]) continue;
  for (const lang of LANGUAGES) {
    if (!seen.has(`${screen}/${lang}`)) missing.push(`${screen} (${lang})`);
  }
}

// npm test runs it with --require-all after the whole suite; after a spec file or a --grep it only tells.
if (missing.length > 0) {
  const message = `not checked with axe and at 360 px: ${missing.join(', ')}`;
  if (process.argv.includes('--require-all')) problems.push(message);
  else console.log(`\n${message}\n(npm test requires every one: --require-all)`);
}
if (problems.length > 0) {
  console.error(`\nscreen checks failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  missing.length > 0
    ? '\nscreen checks: none of the screens checked is wider than 360 px'
    : '\nscreen checks: every screen checked in es, en and eu, none wider than 360 px',
);
