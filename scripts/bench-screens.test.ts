import { describe, expect, it } from 'vitest';
import { lighthouseScreens } from '../bench/lighthouse';
import { pickScreens } from '../bench/screens';

describe('the screens the Lighthouse bench opens', () => {
  const list = lighthouseScreens();
  const roleOf = (screen: string) => list.find((s) => s.screen === screen)?.username;

  it('opens Welcome signed out and each screen of the issue as the role that uses it', () => {
    expect(list[0]).toEqual({ screen: 'Welcome', path: '/', username: null });
    expect(
      Object.fromEntries(
        [
          'Landing',
          'UserHome',
          'MyAccreditations',
          'UserProfile',
          'MyVisits',
          'NewVisit',
          'VisitList',
          'PortalUsers',
          'AuditAccesses',
          'PortalManagement',
        ].map((screen) => [screen, roleOf(screen)]),
      ),
    ).toEqual({
      Landing: 'newcomer',
      UserHome: 'user',
      MyAccreditations: 'user',
      UserProfile: 'user',
      MyVisits: 'visitor',
      NewVisit: 'visitor',
      VisitList: 'receptionist',
      PortalUsers: 'usermanager',
      AuditAccesses: 'auditor',
      PortalManagement: 'assistant',
    });
  });

  it('leaves out what does not open from an address: enrolment steps and screens that need a parameter', () => {
    const names = list.map((s) => s.screen);
    expect(names).not.toContain('PrivacyOnboarding');
    expect(names).not.toContain('AccreditationDetail');
    expect(names).not.toContain('PortalUserDetail');
    expect(list.every((s) => !s.path.includes(':'))).toBe(true);
  });

  it('runs the screens --screens names, in the list order, and refuses a name it does not have', () => {
    expect(pickScreens(list, ['UserProfile', 'UserHome']).map((s) => s.screen)).toEqual([
      'UserHome',
      'UserProfile',
    ]);
    expect(() => pickScreens(list, ['UserHome', 'Nowhere'])).toThrow(/unknown screen Nowhere/);
  });
});
