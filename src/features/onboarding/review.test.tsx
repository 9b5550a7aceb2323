// @vitest-environment jsdom
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { registrationPayload } from '../../../contract/api/onboarding';
import { TEXT_LIMITS } from '../../../contract/api/text';
import type { OcrField } from '../../../contract/domain/registration';
import { withoutIds } from '../../i18n/catalogue';
import en from '../../i18n/messages/en.json';
import { confirmationMessages, fieldMark, reviewErrors } from './review';

// The review checks the limits of the registration payload's schema before sending, so that a too-long name or
// a pasted control character shows a translated field error rather than a 422 from the server.

const valid: Record<OcrField, string> = {
  first_name: 'Carmen',
  last_name: 'Española',
  birth_date: '01/01/1980',
  expiry_date: '01/01/2031',
  document_number: 'ABC123',
  id_number: '',
  nationality: 'ESP',
  expedition_country: 'ES',
};

describe('reviewErrors and the schema limits', () => {
  it('passes a valid review', () => {
    expect(reviewErrors(valid)).toEqual({});
  });

  it('refuses a name over the limit, which the server would refuse too', () => {
    const long = 'A'.repeat(TEXT_LIMITS.name + 1);
    expect(reviewErrors({ ...valid, first_name: long })).toEqual({ first_name: 'validation.tooLong' });
    expect(
      registrationPayload.allows({
        first_name: long,
        last_name: 'B',
        birth_date: '1980-01-01',
        document_number: 'A1',
        document_type: 'id',
      }),
    ).toBe(false);
    expect(reviewErrors({ ...valid, last_name: 'A'.repeat(TEXT_LIMITS.name) })).toEqual({});
  });

  it('refuses control characters and a document number over 32 characters', () => {
    expect(reviewErrors({ ...valid, last_name: 'Es\u0000pañola' })).toEqual({
      last_name: 'validation.invalidCharacters',
    });
    expect(reviewErrors({ ...valid, document_number: 'A'.repeat(33) })).toEqual({
      document_number: 'validation.tooLong',
    });
  });

  it('refuses a date before 1900', () => {
    expect(reviewErrors({ ...valid, birth_date: '01/01/0000' })).toEqual({ birth_date: 'validation.date' });
    expect(reviewErrors({ ...valid, birth_date: '31/12/1899' })).toEqual({ birth_date: 'validation.date' });
  });
});

describe('the marks of the fields read from the document', () => {
  it('marks a field read while it holds what was read, changed once edited, nothing when unread', () => {
    expect(fieldMark('CARMEN', 'CARMEN')).toBe('read');
    expect(fieldMark('CARMEN', ' CARMEN ')).toBe('read');
    expect(fieldMark('CARMEN', 'Carmen')).toBe('changed');
    expect(fieldMark('CARMEN', '')).toBe('changed');
    expect(fieldMark('', 'Carmen')).toBeUndefined();
  });
});

// What the server refused of the confirmation is never lost or blank on RegisterForm: a field the form shows gets
// its words beside it, a reviewed field (not on this form) is named above it, and a code without words shows the
// server's detail in the language's sentence.
describe('confirmationMessages', () => {
  const intl = createIntl({
    locale: 'en',
    messages: withoutIds(en) as Record<string, string>,
    onError: () => {},
  });

  it('puts a contact field’s words beside it and names a reviewed field above the form', () => {
    const refused = confirmationMessages(intl, {
      code: 'validation',
      detail: 'validation',
      errors: [
        { field: 'extra_fields.phone', code: 'too_long' },
        { field: 'birth_date', code: 'date_in_future' },
      ],
    });
    expect(refused.fields).toEqual({ phone: en['common.errors.too_long'] });
    expect(refused.form).toBe(`${en['review.field.birth_date']}: ${en['common.errors.date_in_future']}`);
  });

  it('shows the detail for a code without words, and the unknown problem without a detail', () => {
    expect(
      confirmationMessages(intl, { code: 'zz_code_that_exists_nowhere', errors: [], detail: 'Locked.' }).form,
    ).toBe('This could not be done. The server says: “Locked.”');
    expect(confirmationMessages(intl, { code: null, errors: [] }).form).toBe(en['common.errors.unknown']);
    expect(confirmationMessages(intl, null)).toEqual({ fields: {}, form: undefined });
  });

  it('keeps the words of a call that got no answer, as the notice said them', () => {
    const offline = { code: null, errors: [], failure: 'common.http.network' };
    expect(confirmationMessages(intl, offline).form).toBe(en['common.http.network']);
    // A failure id the catalogue does not hold is no words: the unknown problem.
    expect(confirmationMessages(intl, { ...offline, failure: 'common.http.nowhere' }).form).toBe(
      en['common.errors.unknown'],
    );
  });
});
