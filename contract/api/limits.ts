// The limits of the contract as plain values, without the schema library: the forms check them before sending
// (and load no schema until they send), the schemas of text.ts and onboarding.ts enforce them.

export const TEXT_LIMITS = {
  /** First and last names. */
  name: 100,
  /** RFC 5321: an address is at most 254 characters. */
  email: 254,
  /** Ids of accounts, users, processes, modes. */
  id: 64,
  /** Short texts: a location, a host, a date as sent. */
  text: 200,
  phone: 32,
} as const;

export const JSON_LIMITS = {
  /** userData, extra_fields, the life_proofing data: at most this many characters as JSON. */
  maxChars: 16 * 1024,
  /** …and at most this many levels of objects and arrays (the value itself is level 1). */
  maxDepth: 8,
} as const;

/**
 * Whether a string is text a field can hold: no C0 control character nor DEL (PostgreSQL text refuses NUL; no
 * field of the portal takes the others), but tab and line breaks in free text; and no lone UTF-16 surrogate
 * (not a character, and PostgreSQL refuses it in JSON).
 */
export function isCleanText(value: string, freeText = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) {
      if (!(freeText && (code === 0x09 || code === 0x0a || code === 0x0d))) return false;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/** The earliest year an API date may have (no birth or expiry date comes before it; PostgreSQL has no year 0). */
export const MIN_API_YEAR = 1900;
