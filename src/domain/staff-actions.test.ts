import { describe, expect, it } from 'vitest';
import {
  decodeStaffActionsForm,
  EMPTY_STAFF_ACTIONS_FORM,
  encodeStaffActionsForm,
  staffActionsFilterOf,
} from './staff-actions';

describe('the Staff actions filter', () => {
  it("turns the form's days into the tenant's instants, the last day included whole", () => {
    const form = {
      staff: ' usermanager ',
      person: '12345678Z',
      action: 'user.deactivate',
      fromDay: '2026-11-02',
      toDay: '2026-11-03',
    };
    expect(staffActionsFilterOf(form, 'Europe/Madrid')).toEqual({
      staff: 'usermanager',
      person: '12345678Z',
      action: 'user.deactivate',
      from: '2026-11-01T23:00:00.000Z',
      to: '2026-11-03T23:00:00.000Z',
    });
  });

  it('leaves out what is empty or not a known action', () => {
    expect(
      staffActionsFilterOf({ ...EMPTY_STAFF_ACTIONS_FORM, action: 'user.peek', fromDay: '2.11.2026' }, 'UTC'),
    ).toEqual({});
  });

  it('round-trips through the list machine, and reads anything else as the empty form', () => {
    const form = { ...EMPTY_STAFF_ACTIONS_FORM, person: 'Ane' };
    expect(decodeStaffActionsForm(encodeStaffActionsForm(form))).toEqual(form);
    expect(decodeStaffActionsForm('')).toEqual(EMPTY_STAFF_ACTIONS_FORM);
    expect(decodeStaffActionsForm('{"person": 3}')).toEqual(EMPTY_STAFF_ACTIONS_FORM);
  });
});
