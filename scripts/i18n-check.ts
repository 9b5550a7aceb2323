// Every message id used in the code exists in es, en and eu; the three files have the same keys; every
// message parses as ICU and uses the same placeholders in each language; tenant overrides only override
// ids that exist; every error code the server can answer has words (common.errors.{code}) in each language or
// is handled where scripts/error-codes.ts says. Run by `npm test` (npm run i18n:check).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { checkErrorWords } from './error-codes';

type Messages = Record<string, string>;
const locales = ['es', 'en', 'eu'] as const;
const problems: string[] = [];
const read = (path: string): Messages => JSON.parse(readFileSync(path, 'utf8'));
const catalogues = Object.fromEntries(locales.map((l) => [l, read(`src/i18n/messages/${l}.json`)])) as Record<
  (typeof locales)[number],
  Messages
>;

// Ids written literally in the code, found by formatjs's own extractor.
const out = join(mkdtempSync(join(tmpdir(), 'i18n-')), 'extracted.json');
execFileSync(
  'npx',
  ['formatjs', 'extract', 'src/**/*.{ts,tsx}', '--ignore', 'src/**/*.test.*', '--out-file', out],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
// Plus ids handed around as data (`messageId: 'x.y'`), e.g. notices and menu entries.
const messageIdLiterals = execFileSync('grep', [
  '-rhoE',
  // `messageId: 'x.y'` in data, and JSX props named …Id="x.y" (titleId, leadId, labelId).
  'messageId: \'[a-zA-Z0-9_.-]+\'|[a-z][a-zA-Z]*Id="[a-zA-Z0-9_.-]+"',
  'src',
  '--include=*.ts',
  '--include=*.tsx',
  '--exclude=*.test.ts',
  '--exclude=*.test.tsx',
])
  .toString()
  .split('\n')
  .filter(Boolean)
  // testId="…" and …TestId="…" name elements for tests, not messages.
  .filter((line) => !/^(testId|[a-z][a-zA-Z]*TestId)=/.test(line))
  .map((line) => line.replace(/^messageId: '|'$|^[a-z][a-zA-Z]*Id="|"$/g, ''));
const used = [...new Set([...Object.keys(JSON.parse(readFileSync(out, 'utf8'))), ...messageIdLiterals])];

// Ids built at run time from a known list (screen titles, catalogue codes) are declared in the code
// next to where they are built; they are listed here by pattern and checked by prefix.
const dynamicPrefixes = [
  'screen.',
  'accounts.status.',
  'tenant.error.',
  'error.reason.',
  'common.http.',
  'common.errors.',
  // Onboarding: choices, sides, scan failures, challenge actions, field labels and validation messages.
  'documents.type.',
  'documents.country.',
  'documentScan.',
  'scanFailure.',
  'selfieFailure.',
  'takeSelfieAlive.action.',
  'review.field.',
  'validation.',
  // Visits: statuses, history events and their kinds of actor, date presets, orderings, the detail's tabs.
  'visits.status.',
  'visits.history.',
  'visits.actor.',
  'visits.preset.',
  'visits.order.',
  'visits.tab.',
  // Staff users: columns, states, the detail's tabs, fields, results and credentials, the admin actions; and the
  // pairs chosen by a condition (active or not).
  'users.column.',
  'users.onboarding.',
  'users.active',
  'users.inactive',
  'userDetail.tab.',
  'userDetail.field.',
  'userDetail.result.',
  'userDetail.mode.',
  'userDetail.credential.',
  'userDetail.state.',
  'userDetail.evidenceAlt.',
  'userDetail.refusal.',
  'userDetail.activate',
  'userDetail.deactivate',
  'userDetail.extend',
  'userDetail.reactivate',
  'admin.activateAll.',
  'admin.deactivateAll.',
  'admin.deleteUsers.',
  'admin.deleteAllData.',
  // Access audit and watchlists: results, reasons, fields, presets, document types, file refusals and problems,
  // upload failures; the facility filter's first option chosen by the caller's scope.
  'audit.result.',
  'audit.reason.',
  'audit.field.',
  'audit.preset.',
  'audit.docType.',
  'audit.filter.',
  // The record of staff actions: its tabs, action names and staff roles.
  'staffActions.tab.',
  'staffActions.action.',
  'staffActions.role.',
  'watchlist.refused.',
  'watchlist.problem.',
  'watchlist.failed.',
  // Regions (legal domains) by their code.
  'regions.',
];

function placeholders(message: string): string[] {
  const names = new Set<string>();
  const visit = (elements: ReturnType<typeof parse>) => {
    for (const element of elements) {
      if (element.type !== TYPE.literal && element.type !== TYPE.pound)
        names.add((element as { value: string }).value);
      if ('options' in element) for (const option of Object.values(element.options)) visit(option.value);
      if (element.type === TYPE.tag) visit(element.children);
    }
  };
  visit(parse(message));
  return [...names].sort();
}

for (const id of used) {
  for (const locale of locales)
    if (!(id in catalogues[locale])) problems.push(`${locale}: missing "${id}" (used in code)`);
}
const reference = Object.keys(catalogues.es);
for (const locale of locales) {
  const keys = Object.keys(catalogues[locale]);
  for (const id of reference)
    if (!keys.includes(id)) problems.push(`${locale}: missing "${id}" (present in es)`);
  for (const id of keys) if (!reference.includes(id)) problems.push(`${locale}: "${id}" is not in es`);
  for (const [id, message] of Object.entries(catalogues[locale])) {
    try {
      const names = placeholders(message);
      const expected = catalogues.es[id] === undefined ? names : placeholders(catalogues.es[id]);
      if (names.join() !== expected.join())
        problems.push(`${locale}: "${id}" has placeholders {${names}} but es has {${expected}}`);
    } catch (error) {
      problems.push(`${locale}: "${id}" is not valid ICU: ${(error as Error).message}`);
    }
  }
}
for (const id of reference) {
  if (!used.includes(id) && !dynamicPrefixes.some((p) => id.startsWith(p)))
    problems.push(`es: "${id}" is never used`);
}

for (const tenant of readdirSync('public/tenants')) {
  for (const file of readdirSync(`public/tenants/${tenant}/locales`)) {
    for (const id of Object.keys(read(`public/tenants/${tenant}/locales/${file}`))) {
      if (!(id in catalogues.es)) problems.push(`tenant ${tenant} ${file}: overrides unknown id "${id}"`);
    }
  }
}

// The codes the server answers, collected from its source (scripts/error-codes.ts), each with words.
const errorWords = checkErrorWords(process.cwd(), catalogues);
problems.push(...errorWords.problems);

if (problems.length > 0) {
  console.error(`i18n: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `i18n: ${reference.length} messages complete in ${locales.join(', ')}; ${used.length} ids used literally; ` +
    `${errorWords.codes.size} error codes the server can answer, ${errorWords.codes.size - errorWords.handled.size} ` +
    `with words in common.errors and ${errorWords.handled.size} handled by a machine or words of their own`,
);
