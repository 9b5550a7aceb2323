// The Staff actions tab's filter (staff member, person, action, a day range): held by the list machine as one string,
// and the same filter goes to the list (GET) and to the csv export (POST), so the file holds exactly the rows shown.
import { isStaffActionName } from '../../contract/api/checks';
import type { StaffActionsFilter } from '../../contract/api/staff-actions';
import { startOfDayIn } from '../../contract/domain/visits';

/** What the form holds: texts as typed, days as YYYY-MM-DD (the tenant's days), the action as its name or ''. */
export interface StaffActionsForm {
  staff: string;
  person: string;
  action: string;
  fromDay: string;
  toDay: string;
}

export const EMPTY_STAFF_ACTIONS_FORM: StaffActionsForm = {
  staff: '',
  person: '',
  action: '',
  fromDay: '',
  toDay: '',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const encodeStaffActionsForm = (form: StaffActionsForm): string => JSON.stringify(form);

/** The form the list machine holds; anything unreadable is the empty form (every action). */
export function decodeStaffActionsForm(text: string): StaffActionsForm {
  try {
    const raw = JSON.parse(text) as Partial<Record<keyof StaffActionsForm, unknown>>;
    const text_ = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      staff: text_(raw.staff),
      person: text_(raw.person),
      action: text_(raw.action),
      fromDay: text_(raw.fromDay),
      toDay: text_(raw.toDay),
    };
  } catch {
    return EMPTY_STAFF_ACTIONS_FORM;
  }
}

/** The API's filter: trimmed texts, a known action, and the days as instants (the last day included whole). */
export function staffActionsFilterOf(form: StaffActionsForm, timeZone: string): StaffActionsFilter {
  const at = (day: string, plus: number) =>
    startOfDayIn(new Date(`${day}T12:00:00Z`), timeZone, plus).toISOString();
  const staff = form.staff.trim().slice(0, 100);
  const person = form.person.trim().slice(0, 100);
  return {
    ...(staff ? { staff } : {}),
    ...(person ? { person } : {}),
    ...(isStaffActionName(form.action) ? { action: form.action } : {}),
    ...(DAY.test(form.fromDay) ? { from: at(form.fromDay, 0) } : {}),
    ...(DAY.test(form.toDay) ? { to: at(form.toDay, 1) } : {}),
  };
}
