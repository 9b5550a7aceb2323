// Spec §5 "wrong email format": something@domain.tld, without spaces. The server validates with the same pattern.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL_PATTERN.test(value.trim());
