import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocumentChoice } from '../api/onboarding';
import {
  documentCode,
  hasReverse,
  imagesFor,
  isCompleteDocumentChoice,
  normaliseDocumentCountry,
  portrayalTypeOf,
} from './documents';

const CHOICES: DocumentChoice[] = ['id', 'id_card', 'driving_license', 'passport', 'others', 'any', 'none'];

describe('documents', () => {
  it('sends passports and others as XX and uppercases other countries (spec §5)', () => {
    expect(normaliseDocumentCountry('passport', 'es')).toBe('XX');
    expect(normaliseDocumentCountry('others', null)).toBe('XX');
    expect(normaliseDocumentCountry('id_card', ' fr ')).toBe('FR');
    expect(normaliseDocumentCountry('driving_license', '')).toBeNull();
    expect(normaliseDocumentCountry('none', 'ES')).toBeNull();
  });

  it('codes documents as spec §9 says: ES → ES2, MX → MX2, ID and DL suffixes, generic otherwise', () => {
    expect(documentCode('id_card', 'es')).toBe('ES2_ID');
    expect(documentCode('driving_license', 'ES')).toBe('ES2_DL');
    expect(documentCode('id_card', 'MX')).toBe('MX2_ID');
    expect(documentCode('id_card', 'FR')).toBe('FR_ID');
    expect(documentCode('passport', 'ES')).toBe('XX_PASSPORT');
    expect(documentCode('others', 'ES')).toBe('XX_XX');
    expect(documentCode('id_card', null)).toBe('XX_XX');
  });

  it('asks for the reverse except for passports and the selfie-only choice', () => {
    expect(imagesFor('id_card', false)).toEqual(['obverse', 'reverse', 'selfie']);
    expect(imagesFor('passport', false)).toEqual(['obverse', 'selfie']);
    expect(imagesFor('none', false)).toEqual(['selfie']);
    expect(imagesFor('driving_license', true)).toEqual(['obverse', 'reverse', 'lifeproof']);
    expect(portrayalTypeOf('none')).toBe('selfie');
    expect(portrayalTypeOf('others')).toBe('document');
  });

  it('accepts a choice only when the onboarding offers it and the country is known where asked', () => {
    const offered = ['id_card', 'passport', 'none'];
    expect(isCompleteDocumentChoice(offered, 'id_card', 'es')).toBe(true);
    expect(isCompleteDocumentChoice(offered, 'id_card', null)).toBe(false);
    expect(isCompleteDocumentChoice(offered, 'passport', null)).toBe(true);
    expect(isCompleteDocumentChoice(offered, 'driving_license', 'ES')).toBe(false);
    expect(isCompleteDocumentChoice(offered, 'none', null)).toBe(true);
  });

  it('property: every picture list starts with the document sides and ends with one face picture', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CHOICES), fc.boolean(), (choice, lifeProofing) => {
        const images = imagesFor(choice, lifeProofing);
        expect(images.at(-1)).toBe(lifeProofing ? 'lifeproof' : 'selfie');
        expect(images.includes('reverse')).toBe(hasReverse(choice));
        expect(images.includes('obverse')).toBe(choice !== 'none');
      }),
    );
  });
});
