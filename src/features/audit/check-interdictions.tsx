import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import type { InterdictionResult } from '../../../contract/api/audit';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { errorText } from '../../i18n/error-text';
import { useTenant } from '../../runtime/context';
import { useFormDraft } from '../../runtime/form-draft';
import { useScreenMachine } from '../../runtime/machines';

const RESULTS: Record<InterdictionResult, MessageDescriptor> = defineMessages({
  user_not_found: { id: 'interdictions.result.user_not_found' },
  granted: { id: 'interdictions.result.granted' },
  denied: { id: 'interdictions.result.denied' },
  underaged: { id: 'interdictions.result.underaged' },
  indeterminate: { id: 'interdictions.result.indeterminate' },
});

const m = defineMessages({
  id_number: { id: 'interdictions.field.id_number' },
  birth_date: { id: 'interdictions.field.birth_date' },
  first_name: { id: 'interdictions.field.first_name' },
  last_name: { id: 'interdictions.field.last_name' },
  document_number: { id: 'interdictions.field.document_number' },
  submit: { id: 'interdictions.submit' },
  checking: { id: 'interdictions.checking' },
  validation: { id: 'interdictions.error.validation' },
  unknown: { id: 'interdictions.error.unknown' },
});

const TONE: Record<InterdictionResult, string> = {
  user_not_found: 'border-slate-300 bg-slate-50 text-slate-900',
  granted: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  denied: 'border-red-300 bg-red-50 text-red-900',
  underaged: 'border-amber-300 bg-amber-50 text-amber-900',
  indeterminate: 'border-amber-300 bg-amber-50 text-amber-900',
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Fields = 'id_number' | 'birth_date' | 'first_name' | 'last_name' | 'document_number';

/**
 * CheckInterdictions (spec §2 check-interdictions; §5 id number and birth date required; §8 the five results):
 * the extra fields only with the tenant's extendedInterdictionForm.
 */
export function CheckInterdictions() {
  const intl = useIntl();
  const { settings } = useTenant();
  const logic = useScreenMachine('interdictionCheck');
  const actor = useActorRef(logic);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const result = useSelector(actor, (s) => (s.matches('answered') ? s.context.result : null));
  const failure = useSelector(actor, (s) =>
    s.matches({ failed: 'validation' }) ? 'validation' : s.matches({ failed: 'unknown' }) ? 'unknown' : null,
  );
  // What the server said of a failed check, in the person's words (its code's, else its own detail).
  const reason = useSelector(actor, (s) => {
    const problem = s.matches({ failed: 'unknown' }) ? s.context.problem : null;
    return problem?.code || problem?.detail
      ? errorText(intl, problem.code, { serverText: problem.detail ?? null })
      : null;
  });
  const extended = settings.extendedInterdictionForm === true;
  // What was typed outlives a sign-out (a 401 on checking): signed in again, the form is as it was left; once the
  // check is answered the draft goes.
  const drafts = useFormDraft('checkInterdictions');
  const [values, setValues] = useState<Record<Fields, string>>(() => {
    const draft = drafts.load();
    return {
      id_number: draft?.id_number ?? '',
      birth_date: draft?.birth_date ?? '',
      first_name: draft?.first_name ?? '',
      last_name: draft?.last_name ?? '',
      document_number: draft?.document_number ?? '',
    };
  });
  const answered = result !== null;
  useEffect(() => {
    if (answered) drafts.clear();
    else drafts.save(values);
  }, [drafts, values, answered]);
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const required = intl.formatMessage({ id: 'common.errors.required' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const idNumber = values.id_number.replace(/[\s-]/g, '').toUpperCase();
    const next: Partial<Record<Fields, string>> = {};
    if (idNumber === '') next.id_number = required;
    if (values.birth_date === '') next.birth_date = required;
    else if (!ISO_DATE.test(values.birth_date))
      next.birth_date = intl.formatMessage({ id: 'interdictions.birthDate.invalid' });
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const optional = (field: Fields) =>
      extended && values[field].trim() ? { [field]: values[field].trim() } : {};
    actor.send({
      type: 'check.submitted',
      request: {
        id_number: idNumber,
        birth_date: values.birth_date,
        ...optional('first_name'),
        ...optional('last_name'),
        ...optional('document_number'),
      },
    });
  };

  const field = (name: Fields, extra: Record<string, string | number> = {}) => (
    <Field
      label={intl.formatMessage(m[name])}
      error={errors[name]}
      value={values[name]}
      onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
      autoComplete="off"
      spellCheck={false}
      data-testid={`interdictions-${name}`}
      {...extra}
    />
  );

  return (
    <section data-screen="CheckInterdictions" className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.CheckInterdictions" />
      </h1>
      <Card>
        <p className="text-slate-700">
          <FormattedMessage id="interdictions.lead" />
        </p>
        <form
          onSubmit={submit}
          noValidate
          className="mt-5 grid gap-4 sm:grid-cols-2"
          data-testid="interdictions-form"
        >
          {field('id_number', { maxLength: 20, autoCapitalize: 'characters' })}
          {field('birth_date', { type: 'date', max: new Date().toISOString().slice(0, 10) })}
          {extended && (
            <>
              {field('first_name', { maxLength: 100 })}
              {field('last_name', { maxLength: 100 })}
              {field('document_number', { maxLength: 40, autoCapitalize: 'characters' })}
            </>
          )}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy} data-testid="interdictions-submit">
              <FormattedMessage {...(busy ? m.checking : m.submit)} />
            </Button>
          </div>
        </form>
      </Card>
      <div aria-live="polite">
        {result && (
          <p
            className={`rounded-xl border p-4 font-medium ${TONE[result]}`}
            data-testid="interdictions-result"
            data-result={result}
          >
            <FormattedMessage {...RESULTS[result]} />
          </p>
        )}
        {failure && (
          <Alert message={intl.formatMessage(m[failure])} data-testid="interdictions-error">
            {reason && <p className="text-sm">{reason}</p>}
          </Alert>
        )}
      </div>
    </section>
  );
}
