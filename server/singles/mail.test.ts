import { describe, expect, it } from 'vitest';
import { qrMail, qrMailLanguage } from './mail';

describe('the QR mail', () => {
  it('is in the first language of the request the tenant offers, else in the tenant’s first', () => {
    expect(qrMailLanguage('eu-ES,eu;q=0.9,es;q=0.8', ['es', 'en', 'eu'])).toBe('eu');
    expect(qrMailLanguage('fr, EN;q=0.5', ['es', 'en'])).toBe('en');
    // A language the tenant does not offer is not the mail's, even when the mail has words for it.
    expect(qrMailLanguage('en', ['eu', 'es'])).toBe('eu');
    expect(qrMailLanguage(undefined, ['en', 'es'])).toBe('en');
    expect(qrMailLanguage('', [])).toBe('es');
  });

  it('says one language, with the link', () => {
    expect(qrMail('en', 'https://demo.example/accreditations')).toEqual({
      subject: 'Your access QR',
      body: 'Your access credential is ready. Sign in to see your QR: https://demo.example/accreditations',
    });
  });
});
