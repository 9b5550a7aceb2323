import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useRuntime, useTenant } from './context';
import { useScreenMachine } from './machines';

/** A form's draft in the tab's storage (FormDraftStore), bound to this tenant and the person signed in. */
export interface FormDraft {
  load(): Record<string, string> | null;
  save(values: Record<string, string>): void;
  clear(): void;
}

/**
 * The draft of `form` for the tenant and the person signed in (or nobody yet): what a form keeps across a reload or a
 * sign-out and signing in again, forgotten when the form is done with and on a deliberate logout.
 */
export function useFormDraft(form: string): FormDraft {
  const drafts = useScreenMachine('formDraft');
  const { tenant } = useTenant();
  const userId = useSelector(useRuntime().session, (s) => s.context.session?.userId ?? 'anonymous');
  return useMemo(
    () => ({
      load: () => drafts.load(form, tenant, userId),
      save: (values) => drafts.save(form, tenant, userId, values),
      clear: () => drafts.clear(form, tenant, userId),
    }),
    [drafts, form, tenant, userId],
  );
}
