import { format, isValid, parse } from 'date-fns';

// Spec §9: shown as DD/MM/YYYY and HH:mm; the API speaks YYYY-MM-DD.
export const DISPLAY_DATE = 'dd/MM/yyyy';
export const DISPLAY_TIME = 'HH:mm';
export const DISPLAY_DATE_TIME = 'dd/MM/yyyy HH:mm';
export const API_DATE = 'yyyy-MM-dd';

export const formatDate = (date: Date): string => format(date, DISPLAY_DATE);
export const formatTime = (date: Date): string => format(date, DISPLAY_TIME);
export const formatDateTime = (date: Date): string => format(date, DISPLAY_DATE_TIME);
export const toApiDate = (date: Date): string => format(date, API_DATE);

/** Parses an API date (YYYY-MM-DD) strictly; undefined when it is not a real calendar date. */
export function fromApiDate(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = parse(value, API_DATE, new Date(2000, 0, 1));
  return isValid(date) && format(date, API_DATE) === value ? date : undefined;
}

/** Parses a displayed date (DD/MM/YYYY) strictly. */
export function fromDisplayDate(value: string): Date | undefined {
  if (!/^\d{2}\/\d{2}\/\d{4}$/.test(value)) return undefined;
  const date = parse(value, DISPLAY_DATE, new Date(2000, 0, 1));
  return isValid(date) && format(date, DISPLAY_DATE) === value ? date : undefined;
}
