import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DocumentChoice, registrationPayload } from '../api/onboarding';
import {
  buildRegistrationPayload,
  EMPTY_FORM,
  OCR_FIELDS,
  ocrAdaptations,
  type RegistrationInput,
  type ReviewFields,
  reviewDraft,
  toApiDateString,
} from './registration';

const reviewed: ReviewFields = {
  first_name: ' Ana ',
  last_name: 'García',
  birth_date: '01/04/1990',
  expiry_date: '2031-01-01',
  document_number: 'caa 000000',
  id_number: '12345678z',
  nationality: 'esp',
  expedition_country: 'ESP',
};

const base: RegistrationInput = {
  reviewed,
  documentType: 'id_card',
  form: { email: 'ana@example.com', phone: ' 600 000 000 ', nie: '' },
  registerMode: 'auto',
  domain: 'demo',
  sessionEmail: 'ana@demo.example',
  assistedEmail: null,
};

describe('registration payload', () => {
  it('builds the spec §3 payload with API dates and uppercased codes', () => {
    expect(buildRegistrationPayload(base)).toEqual({
      first_name: 'Ana',
      last_name: 'García',
      birth_date: '1990-04-01',
      expiry_date: '2031-01-01',
      document_number: 'CAA000000',
      id_number: '12345678Z',
      nationality: 'ESP',
      expedition_country: 'ESP',
      document_type: 'id_card',
      email: 'ana@example.com',
      extra_fields: { phone: '600 000 000' },
    });
  });

  it('never sends the staff-only fields in auto mode (spec §5; the server refuses them)', () => {
    for (const domain of ['demo', 'gambling']) {
      const payload = buildRegistrationPayload({ ...base, domain });
      for (const field of ['skip_email_check', 'username', 'acs_id', 'id']) {
        expect(Object.hasOwn(payload, field), field).toBe(false);
      }
    }
  });

  it('puts the email in extra_fields for gambling in auto mode and for document type others', () => {
    const gambling = buildRegistrationPayload({ ...base, domain: 'gambling' });
    expect(gambling.email).toBeUndefined();
    expect(gambling.extra_fields).toEqual({ phone: '600 000 000', email: 'ana@example.com' });
    const others = buildRegistrationPayload({ ...base, documentType: 'others', registerMode: 'assisted' });
    // assisted without an assisted email: there is no email to send at all
    expect(others.extra_fields).toEqual({ phone: '600 000 000' });
    expect(others.email).toBeUndefined();
  });

  it('uses the assisted email and skips the email check in assisted mode', () => {
    const payload = buildRegistrationPayload({
      ...base,
      domain: 'gambling',
      registerMode: 'assisted',
      assistedEmail: 'guest@example.com',
    });
    expect(payload.email).toBe('guest@example.com');
    expect(payload.skip_email_check).toBe(true);
    const others = buildRegistrationPayload({
      ...base,
      documentType: 'others',
      registerMode: 'assisted',
      assistedEmail: 'guest@example.com',
    });
    expect(others.email).toBeUndefined();
    expect(others.extra_fields?.email).toBe('guest@example.com');
  });

  it('falls back to the session email when the form leaves it empty', () => {
    expect(buildRegistrationPayload({ ...base, form: EMPTY_FORM }).email).toBe('ana@demo.example');
  });

  it('property: a payload from complete data always passes the contract', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
    fc.assert(
      fc.property(
        word,
        word,
        fc.date({ min: new Date(1920, 0, 1), max: new Date(2010, 11, 31), noInvalidDate: true }),
        fc.stringMatching(/^[A-Z0-9]{3,12}$/),
        fc.constantFrom<DocumentChoice>('id_card', 'passport', 'driving_license', 'others', 'none'),
        fc.constantFrom('auto' as const, 'assisted' as const),
        fc.constantFrom('gambling', 'demo'),
        (first, last, birth, number, documentType, registerMode, domain) => {
          const payload = buildRegistrationPayload({
            ...base,
            reviewed: {
              ...reviewed,
              first_name: first,
              last_name: last,
              birth_date: birth.toISOString().slice(0, 10),
              document_number: number,
            },
            documentType,
            registerMode,
            domain,
            assistedEmail: 'guest@example.com',
          });
          expect(registrationPayload(payload)).toEqual(payload);
        },
      ),
    );
  });
});

describe('review and OCR adaptations', () => {
  const ocr = {
    first_name: 'ANA',
    last_name: null,
    birth_date: '1990-04-01',
    expiry_date: null,
    document_number: 'CAA000000',
    id_number: null,
    nationality: 'ESP',
    expedition_country: 'ESP',
  };

  it('starts the review from the reading, filling what it did not read from the token claims', () => {
    const draft = reviewDraft(ocr, { family_name: 'García', given_name: 'Ana María', birthdate: 1 });
    expect(draft.first_name).toBe('ANA');
    expect(draft.last_name).toBe('García');
    expect(draft.id_number).toBeNull();
  });

  it('records every field the person changed, with the value kept, and nothing else', () => {
    const kept = { ...reviewDraft(ocr, null), last_name: 'García', birth_date: '01/04/1990' };
    expect(ocrAdaptations(ocr, kept)).toEqual([{ field: 'last_name', value: 'García' }]);
    expect(ocrAdaptations(ocr, { ...kept, nationality: ' ' })).toEqual([
      { field: 'last_name', value: 'García' },
      { field: 'nationality', value: null },
    ]);
  });

  it('property: a review equal to the reading has no adaptations', () => {
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(OCR_FIELDS.map((f) => [f, fc.option(fc.string())]))),
        (info) => {
          const fields = info as Record<(typeof OCR_FIELDS)[number], string | null>;
          expect(ocrAdaptations(fields, reviewDraft(fields, null))).toEqual([]);
        },
      ),
    );
  });

  it('converts displayed dates to API dates', () => {
    expect(toApiDateString('31/12/1999')).toBe('1999-12-31');
    expect(toApiDateString('1999-12-31')).toBe('1999-12-31');
    expect(toApiDateString('  ')).toBeNull();
  });
});
