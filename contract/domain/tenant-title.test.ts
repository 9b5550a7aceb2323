import { describe, expect, it } from 'vitest';
import { tenantTitle } from './tenant-title';

describe('tenantTitle', () => {
  const settings = { title: 'Portal de identidad', titles: { en: 'Identity portal', eu: 'Nortasun ataria' } };

  it("gives the active language's title", () => {
    expect(tenantTitle(settings, 'en')).toBe('Identity portal');
    expect(tenantTitle(settings, 'eu')).toBe('Nortasun ataria');
  });

  it('falls back to the plain title for a language without one, and for settings without titles', () => {
    expect(tenantTitle(settings, 'es')).toBe('Portal de identidad');
    expect(tenantTitle({ title: 'Demo Access' }, 'en')).toBe('Demo Access');
    expect(tenantTitle({ title: 'Demo Access', titles: { en: '' } }, 'en')).toBe('Demo Access');
  });
});
