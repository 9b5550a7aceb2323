import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { withoutIds } from './catalogue';
import { isFirstScreenMessage } from './first-screen';
import es from './messages/es.json';

// The sources the first screens (Welcome, Landing, the header, the menu, errors, notices) draw from.
const inFolder = (folder: string) =>
  readdirSync(join(__dirname, '..', '..', folder))
    .filter((f) => /\.tsx?$/.test(f) && !f.includes('.test.'))
    .map((f) => `${folder}/${f}`);
const FIRST_SCREEN_SOURCES = [
  ...inFolder('src/app/layout'),
  ...inFolder('src/components/ui'),
  'src/app/shell.tsx',
  'src/components/locale-select.tsx',
  'src/features/public/screens.tsx',
  'src/features/public/tenant-error.tsx',
  'src/features/public/chunk-timeout.tsx',
  'src/app/app.tsx',
  'src/app/runtime.ts',
  'src/components/know-more-link.tsx',
  'src/features/onboarding/enrolment-frame.tsx',
  'src/features/onboarding/landing.tsx',
];

function literalIds(source: string): string[] {
  const ids = Object.keys(es).filter((id) => source.includes(`'${id}'`) || source.includes(`"${id}"`));
  return ids;
}

describe('the first part of the catalogue', () => {
  it('holds every text the first screens name literally', () => {
    const root = join(__dirname, '..', '..');
    const sources = FIRST_SCREEN_SOURCES.map((f) => readFileSync(join(root, f), 'utf8'));
    const missing = sources.flatMap(literalIds).filter((id) => !isFirstScreenMessage(id));
    expect(missing).toEqual([]);
    expect(sources.flatMap(literalIds)).toEqual(
      expect.arrayContaining(['landing.start', 'validation.email']),
    );
  });

  it('leaves the other areas out', () => {
    expect(isFirstScreenMessage('welcome.title')).toBe(true);
    expect(isFirstScreenMessage('validation.email')).toBe(true);
    expect(isFirstScreenMessage('audit.title')).toBe(false);
    expect(isFirstScreenMessage('validation.dni')).toBe(false);
    expect(isFirstScreenMessage('welcome')).toBe(true);
    expect(isFirstScreenMessage('common.dismiss')).toBe(true);
    expect(isFirstScreenMessage('common.save')).toBe(false);
    expect(isFirstScreenMessage('screen.Callback')).toBe(true);
    expect(isFirstScreenMessage('screen.AuditAccesses')).toBe(false);
    const first = Object.keys(es).filter(isFirstScreenMessage).length;
    expect(first).toBeGreaterThan(50);
    expect(first).toBeLessThan(Object.keys(es).length / 3);
  });
});

describe('a text missing at run time', () => {
  it('shows nothing, never its id', () => {
    const errors: unknown[] = [];
    const intl = createIntl({
      locale: 'es',
      messages: withoutIds({ 'welcome.title': 'Hola' }) as Record<string, string>,
      onError: (e) => errors.push(e),
    });
    expect(intl.formatMessage({ id: 'welcome.title' })).toBe('Hola');
    expect(intl.formatMessage({ id: 'audit.notLoadedYet' })).toBe('');
    expect(intl.formatMessage({ id: 'audit.notLoadedYet', description: 'x' }, { n: 1 })).toBe('');
  });
});
