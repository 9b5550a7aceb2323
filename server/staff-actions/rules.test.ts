import { describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../auth/roles';
import { actsAsStaff, staffRolesOf } from './rules';

describe('staff roles of a token', () => {
  it('names each staff role whose permissions the token holds, never the served ones', () => {
    expect(staffRolesOf([...ROLE_PERMISSIONS.usermanager, ...ROLE_PERMISSIONS.user])).toEqual([
      'usermanager',
    ]);
    expect(staffRolesOf([...ROLE_PERMISSIONS.auditor, ...ROLE_PERMISSIONS.receptionist])).toEqual([
      'receptionist',
      'auditor',
    ]);
  });

  it('names an admin only as admin', () => {
    expect(staffRolesOf([...ROLE_PERMISSIONS.admin])).toEqual(['admin']);
  });

  it('an end user or a visitor is not staff; one staff permission is', () => {
    expect(actsAsStaff([...ROLE_PERMISSIONS.visitor])).toBe(false);
    expect(actsAsStaff([...ROLE_PERMISSIONS.user, 'put_credentials_state_one'])).toBe(true);
  });
});
