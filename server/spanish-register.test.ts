import { describe, expect, it } from 'vitest';
import { tuTexts } from '../tests/support/spanish-register';
import { TEXTS as PAGE_TEXTS } from './auth/pages';
import { RESET_MAIL } from './credential-resets/rules';
import { QR_MAIL } from './singles/mail';
import { TEXTS as HOST_MAIL } from './visits/mail';

// What the server itself writes in Spanish (the identity provider's pages, the mails) addresses the person as usted,
// as the portal does (src/i18n/register.test.ts).
describe('the Spanish the server writes', () => {
  it('is usted on the sign-in and password pages and in their mail', () => {
    expect(tuTexts('server/auth/pages.ts', PAGE_TEXTS.es)).toEqual([]);
  });

  it('is usted in the credential reset, visit request and QR mails', () => {
    expect(tuTexts('server/credential-resets/rules.ts', RESET_MAIL.es)).toEqual([]);
    expect(tuTexts('server/visits/mail.ts', HOST_MAIL.es)).toEqual([]);
    expect(tuTexts('server/singles/mail.ts', QR_MAIL.es)).toEqual([]);
  });
});
