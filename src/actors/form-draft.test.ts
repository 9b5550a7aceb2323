// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetDrafts, formDraft } from './form-draft';

describe('a staff form draft', () => {
  afterEach(() => sessionStorage.clear());

  it('gives back what one person typed in one form, and nothing to another person or form', () => {
    formDraft.save('activateUsers', 'gambling', 'user-1', { region: 'es-ct', idNumber: '12345678Z' });
    expect(formDraft.load('activateUsers', 'gambling', 'user-1')).toEqual({
      region: 'es-ct',
      idNumber: '12345678Z',
    });
    expect(formDraft.load('activateUsers', 'gambling', 'user-2')).toBeNull();
    expect(formDraft.load('activateUsers', 'demo', 'user-1')).toBeNull();
    expect(formDraft.load('singleRegistration', 'gambling', 'user-1')).toBeNull();
  });

  it('forgets the values once cleared, and reads a damaged entry as none', () => {
    formDraft.save('activateUsers', 'gambling', 'user-1', { idNumber: 'X' });
    formDraft.clear('activateUsers', 'gambling', 'user-1');
    expect(formDraft.load('activateUsers', 'gambling', 'user-1')).toBeNull();
    sessionStorage.setItem('forms.draft.activateUsers.gambling.user-1', '{not json');
    expect(formDraft.load('activateUsers', 'gambling', 'user-1')).toBeNull();
    sessionStorage.setItem('forms.draft.activateUsers.gambling.user-1', '{"idNumber": 5, "region": "es-an"}');
    expect(formDraft.load('activateUsers', 'gambling', 'user-1')).toEqual({ region: 'es-an' });
  });

  it('logging out forgets every draft of the tab, staff forms and visits alike, and nothing else', () => {
    formDraft.save('activateUsers', 'gambling', 'user-1', { idNumber: '12345678Z' });
    formDraft.save('deleteAccount', 'demo', 'user-2', { idNumber: '87654321X' });
    sessionStorage.setItem('visits.draft.gambling.user-1', '{"host":"a@b.example"}');
    sessionStorage.setItem('portal.notice', 'session.expired');
    forgetDrafts(sessionStorage);
    expect(formDraft.load('activateUsers', 'gambling', 'user-1')).toBeNull();
    expect(formDraft.load('deleteAccount', 'demo', 'user-2')).toBeNull();
    expect(sessionStorage.getItem('visits.draft.gambling.user-1')).toBeNull();
    expect(sessionStorage.getItem('portal.notice')).toBe('session.expired');
  });
});
