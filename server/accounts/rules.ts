// The rules of an account's cancellation that the routes apply (spec §8).

// Spec §8: the portal shows this detail as it comes, so it speaks the language the portal asks for.
const ID_MISMATCH: Record<'es' | 'en' | 'eu', string> = {
  es: 'El DNI/NIE indicado no es el que consta en esta cuenta.',
  en: 'The DNI/NIE does not match the one of this account.',
  eu: 'Adierazitako NAN/AIZ ez da kontu honetan jasota dagoena.',
};

export function idMismatchDetail(acceptLanguage: string | undefined): string {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return first === 'es' || first === 'eu' ? ID_MISMATCH[first] : ID_MISMATCH.en;
}
