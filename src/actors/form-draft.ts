import type { FormDraftStore } from '../runtime/machines';

// A staff form's typed values in the tab's session storage, per form, tenant and person: a 401 signs the person
// out, and what they typed is there when they sign in again (NewVisit keeps its draft the same way).

const keyOf = (form: string, tenant: string, userId: string) => `forms.draft.${form}.${tenant}.${userId}`;

export const formDraft: FormDraftStore = {
  load(form, tenant, userId) {
    try {
      const raw = sessionStorage.getItem(keyOf(form, tenant, userId));
      const parsed: unknown = raw ? JSON.parse(raw) : null;
      if (!parsed || typeof parsed !== 'object') return null;
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch {
      return null;
    }
  },
  save(form, tenant, userId, values) {
    try {
      sessionStorage.setItem(keyOf(form, tenant, userId), JSON.stringify(values));
    } catch {
      // A full or disabled storage only loses the draft on a reload.
    }
  },
  clear(form, tenant, userId) {
    try {
      sessionStorage.removeItem(keyOf(form, tenant, userId));
    } catch {
      // Nothing to clear.
    }
  },
};

/** The keys of every draft a tab keeps for a person: the staff forms' (above) and NewVisit's (visits.ts). */
const DRAFT_KEY = /^(forms|visits)\.draft\./;

/** Forgets every form draft this tab keeps, whoever typed it: a person who logs out on purpose leaves none behind. */
export function forgetDrafts(storage: Storage) {
  try {
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter(
      (key): key is string => key !== null && DRAFT_KEY.test(key),
    );
    for (const key of keys) storage.removeItem(key);
  } catch {
    // A disabled storage kept nothing.
  }
}
