import { isValid, lightFormat } from 'date-fns';

// Spec §9: shown as DD/MM/YYYY and HH:mm; the API speaks YYYY-MM-DD. lightFormat, not format: these fixed
// numeric patterns need no locale data, which keeps date-fns's locale tables out of the phone's download.
export const DISPLAY_DATE = 'dd/MM/yyyy';
export const DISPLAY_TIME = 'HH:mm';
export const DISPLAY_DATE_TIME = 'dd/MM/yyyy HH:mm';
export const API_DATE = 'yyyy-MM-dd';

export const formatDate = (date: Date): string => lightFormat(date, DISPLAY_DATE);
export const formatTime = (date: Date): string => lightFormat(date, DISPLAY_TIME);
export const formatDateTime = (date: Date): string => lightFormat(date, DISPLAY_DATE_TIME);
export const toApiDate = (date: Date): string => lightFormat(date, API_DATE);

/** A local calendar date from its parts, only when those parts name a real day (no 31/02 rolling over). */
function calendarDate(year: number, month: number, day: number): Date | undefined {
  const date = new Date(year, month - 1, day);
  if (
    !isValid(date) ||
    date.getFullYear() !== year ||
    date.getMonth() !== month - 1 ||
    date.getDate() !== day
  ) {
    return undefined;
  }
  return date;
}

/** Parses an API date (YYYY-MM-DD) strictly; undefined when it is not a real calendar date. */
export function fromApiDate(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? calendarDate(Number(match[1]), Number(match[2]), Number(match[3])) : undefined;
}

/** Parses a displayed date (DD/MM/YYYY) strictly. */
export function fromDisplayDate(value: string): Date | undefined {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  return match ? calendarDate(Number(match[3]), Number(match[2]), Number(match[1])) : undefined;
}
