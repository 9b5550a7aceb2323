import { useState } from 'react';
import { FormattedMessage, type IntlShape, useIntl } from 'react-intl';
import { isCleanText, MIN_API_YEAR, TEXT_LIMITS } from '../../../contract/api/limits';
import { formatDate, fromApiDate, fromDisplayDate } from '../../../contract/domain/dates';
import { isAlphanumeric, nationalIdProblem } from '../../../contract/domain/dni';
import { isEmail } from '../../../contract/domain/email';
import { OCR_FIELDS, type OcrField, type ReviewFields } from '../../../contract/domain/registration';
import type { ConfirmationError } from '../../../machines/enrolment.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { errorText, hasMessage } from '../../i18n/error-text';
import { CancelEnrolment, EnrolmentFrame, ScreenTitle } from './enrolment-frame';

const DATE_FIELDS: readonly OcrField[] = ['birth_date', 'expiry_date'];
const REQUIRED: readonly OcrField[] = ['first_name', 'last_name', 'birth_date', 'document_number'];
/** The order a person reads their own details in. */
const FORM_ORDER: readonly OcrField[] = [
  'first_name',
  'last_name',
  'birth_date',
  'document_number',
  'id_number',
  'expiry_date',
  'nationality',
  'expedition_country',
];

/** A date field shown as DD/MM/YYYY whatever form the document reading gave it in. */
function displayValue(field: OcrField, value: string | null): string {
  if (!value) return '';
  if (!DATE_FIELDS.includes(field)) return value;
  const date = fromApiDate(value) ?? fromDisplayDate(value);
  return date ? formatDate(date) : value;
}

/** The longest value each text field may have: the limits of the registration payload's schema. */
const MAX_LENGTH: Partial<Record<OcrField, number>> = {
  first_name: TEXT_LIMITS.name,
  last_name: TEXT_LIMITS.name,
  document_number: 32,
  id_number: 32,
};

/** Spec §5 validation of the reviewed data; message ids by field. */
export function reviewErrors(
  values: Record<OcrField, string>,
  today = new Date(),
): Partial<Record<OcrField, string>> {
  const errors: Partial<Record<OcrField, string>> = {};
  for (const field of OCR_FIELDS) {
    const value = values[field].trim();
    if (!value) {
      if (REQUIRED.includes(field)) errors[field] = 'validation.required';
      continue;
    }
    if (!isCleanText(value)) {
      errors[field] = 'validation.invalidCharacters';
      continue;
    }
    const max = MAX_LENGTH[field];
    if (max !== undefined && value.length > max) {
      errors[field] = 'validation.tooLong';
      continue;
    }
    if (DATE_FIELDS.includes(field)) {
      const date = fromDisplayDate(value);
      if (!date || date.getFullYear() < MIN_API_YEAR) errors[field] = 'validation.date';
      else if (field === 'birth_date' && date > today) errors[field] = 'validation.birthDateFuture';
      continue;
    }
    if (field === 'document_number' && !isAlphanumeric(value.replace(/\s/g, ''))) {
      errors[field] = 'validation.alphanumeric';
    }
    if (field === 'id_number') {
      const compact = value.replace(/[\s-]/g, '');
      if (!isAlphanumeric(compact)) errors[field] = 'validation.alphanumeric';
      else if (/^[0-9XYZxyz]\d{7}[A-Za-z]$/.test(compact)) {
        const problem = nationalIdProblem(compact);
        if (problem === 'wrong_letter') errors[field] = 'validation.idLetter';
        if (problem === 'letter_not_uppercase') errors[field] = 'validation.idLetterUppercase';
      }
    }
    if ((field === 'nationality' || field === 'expedition_country') && !/^[A-Za-z]{2,3}$/.test(value)) {
      errors[field] = 'validation.country';
    }
  }
  return errors;
}

/** A field read from the document is 'read' while it holds what was read, 'changed' once the person edits it. */
export function fieldMark(readValue: string, current: string): 'read' | 'changed' | undefined {
  if (readValue === '') return undefined;
  return current.trim() === readValue ? 'read' : 'changed';
}

/** What the engine read of each field (the document_info), in the form's display format; '' when unread. */
type ReadValues = Partial<Record<OcrField, string>>;

function ReviewForm({
  draft,
  read,
  onConfirm,
}: {
  draft: ReviewFields;
  read: ReadValues;
  onConfirm: (fields: ReviewFields) => void;
}) {
  const intl = useIntl();
  const [values, setValues] = useState<Record<OcrField, string>>(
    () =>
      Object.fromEntries(OCR_FIELDS.map((f) => [f, displayValue(f, draft[f])])) as Record<OcrField, string>,
  );
  const [tried, setTried] = useState(false);
  const errors = reviewErrors(values);
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (Object.keys(errors).length > 0) {
          const first = FORM_ORDER.find((f) => errors[f]);
          if (first) document.getElementById(`review-${first}`)?.focus();
          return;
        }
        onConfirm(Object.fromEntries(OCR_FIELDS.map((f) => [f, values[f].trim() || null])) as ReviewFields);
      }}
    >
      {FORM_ORDER.map((field) => {
        const error = tried ? errors[field] : undefined;
        // Each field read from the document says so, and says when the person changed what was read.
        const readValue = read[field] ?? '';
        const mark = fieldMark(readValue, values[field]);
        return (
          <Field
            key={field}
            id={`review-${field}`}
            name={field}
            label={`${intl.formatMessage({ id: `review.field.${field}` })}${REQUIRED.includes(field) ? ' *' : ''}`}
            value={values[field]}
            required={REQUIRED.includes(field)}
            inputMode={DATE_FIELDS.includes(field) ? 'numeric' : undefined}
            placeholder={
              DATE_FIELDS.includes(field) ? intl.formatMessage({ id: 'review.datePlaceholder' }) : undefined
            }
            autoComplete="off"
            data-mark={mark}
            hint={
              mark === 'read'
                ? intl.formatMessage({ id: 'review.mark.read' })
                : mark === 'changed'
                  ? intl.formatMessage({ id: 'review.mark.changed' }, { read: readValue })
                  : undefined
            }
            error={error ? intl.formatMessage({ id: error }) : undefined}
            onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
          />
        );
      })}
      <Button type="submit" data-testid="review-confirm">
        <FormattedMessage id="review.confirm" />
      </Button>
    </form>
  );
}

/** ReviewRegister (spec §2): waits for the result, then shows what was read so the person can correct it. */
export function ReviewRegister() {
  const intl = useIntl();
  return (
    <EnrolmentFrame screen="ReviewRegister">
      {({ actor, snapshot }) => {
        if (!snapshot.matches({ onboarding: 'review' })) {
          return (
            <>
              <ScreenTitle titleId="review.waiting.title" />
              <Card role="status" aria-live="polite" className="flex flex-col items-center gap-4 py-10">
                <Spinner label={intl.formatMessage({ id: 'review.waiting' })} />
                <p>
                  <FormattedMessage id="review.waiting" />
                </p>
              </Card>
            </>
          );
        }
        return (
          <>
            <ScreenTitle titleId="review.title" leadId="review.lead" />
            <ReviewForm
              key={snapshot.context.identityPortrayalId ?? ''}
              draft={
                snapshot.context.review ??
                (Object.fromEntries(OCR_FIELDS.map((f) => [f, null])) as ReviewFields)
              }
              read={Object.fromEntries(
                OCR_FIELDS.map((f) => [
                  f,
                  displayValue(f, snapshot.context.result?.document_info[f] ?? null),
                ]),
              )}
              onConfirm={(fields) => actor.send({ type: 'review.confirm', fields })}
            />
            <CancelEnrolment actor={actor} />
          </>
        );
      }}
    </EnrolmentFrame>
  );
}

const PHONE = /^\+?[0-9 ]{6,20}$/;

/** The registration payload's fields that RegisterForm shows, by the payload's field name (contract/domain/registration.ts). */
const CONTACT_FIELDS: Readonly<Record<string, 'email' | 'phone' | 'nie'>> = {
  email: 'email',
  'extra_fields.email': 'email',
  'extra_fields.phone': 'phone',
  nie: 'nie',
};

/** What the server refused of the confirmation, in words: beside each contact field, the rest above the form. */
export function confirmationMessages(
  intl: IntlShape,
  error: ConfirmationError | null,
): { fields: Record<string, string>; form: string | undefined } {
  if (!error) return { fields: {}, form: undefined };
  if (error.errors.length === 0) {
    // No answer to read (the network, a timeout): the words the client's notice said, kept above the form.
    if (!error.code && error.failure && hasMessage(intl, error.failure)) {
      return { fields: {}, form: intl.formatMessage({ id: error.failure }) };
    }
    return { fields: {}, form: errorText(intl, error.code ?? 'unknown', { serverText: error.detail }) };
  }
  const fields: Record<string, string> = {};
  const others: string[] = [];
  for (const { field, code } of error.errors) {
    const shown = CONTACT_FIELDS[field];
    if (shown) {
      fields[shown] ??= errorText(intl, code);
      continue;
    }
    // A field of the reviewed data (birth_date: date_in_future…), named as on the review screen.
    const label = hasMessage(intl, `review.field.${field}`)
      ? intl.formatMessage({ id: `review.field.${field}` })
      : '';
    const words = errorText(intl, code, { serverText: error.detail });
    others.push(label ? `${label}: ${words}` : words);
  }
  return { fields, form: others.length > 0 ? others.join(' ') : undefined };
}

/** RegisterForm (spec §2, §5): the optional contact details; the server's field errors show beside each field. */
export function RegisterForm() {
  const intl = useIntl();
  return (
    <EnrolmentFrame screen="RegisterForm">
      {({ actor, snapshot }) => {
        const { form, confirmationError } = snapshot.context;
        const refused = confirmationMessages(intl, confirmationError);
        return (
          <ContactForm
            key={JSON.stringify(confirmationError)}
            initial={form}
            busy={snapshot.hasTag('busy')}
            serverErrors={refused.fields}
            formError={refused.form}
            onBack={() => actor.send({ type: 'form.back' })}
            onSubmit={(values) => actor.send({ type: 'form.submit', ...values })}
            footer={<CancelEnrolment actor={actor} />}
          />
        );
      }}
    </EnrolmentFrame>
  );
}

function ContactForm({
  initial,
  busy,
  serverErrors,
  formError,
  onBack,
  onSubmit,
  footer,
}: {
  initial: { email: string; phone: string; nie: string };
  busy: boolean;
  /** The server's refusal of each field, in words. */
  serverErrors: Record<string, string>;
  formError: string | undefined;
  onBack: () => void;
  onSubmit: (values: { email: string; phone: string; nie: string }) => void;
  footer: React.ReactNode;
}) {
  const intl = useIntl();
  const [values, setValues] = useState(initial);
  const [tried, setTried] = useState(false);
  const local: Record<string, string> = {};
  if (values.email.trim() && !isEmail(values.email)) local.email = 'validation.email';
  else if (values.email.trim().length > TEXT_LIMITS.email) local.email = 'validation.tooLong';
  if (values.phone.trim() && !PHONE.test(values.phone.trim())) local.phone = 'validation.phone';
  if (values.nie.trim()) {
    const problem = nationalIdProblem(values.nie);
    if (problem) local.nie = `validation.nie.${problem}`;
  }
  const errorOf = (field: string) => {
    const id = tried ? local[field] : undefined;
    return id ? intl.formatMessage({ id }) : serverErrors[field];
  };
  const set = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (Object.keys(local).length === 0) onSubmit(values);
      }}
    >
      <ScreenTitle titleId="registerForm.title" leadId="registerForm.lead" />
      {formError && <Alert message={formError} />}
      <Field
        id="form-email"
        type="email"
        autoComplete="email"
        label={intl.formatMessage({ id: 'registerForm.email' })}
        value={values.email}
        error={errorOf('email')}
        onChange={set('email')}
      />
      <Field
        id="form-phone"
        type="tel"
        autoComplete="tel"
        label={intl.formatMessage({ id: 'registerForm.phone' })}
        value={values.phone}
        error={errorOf('phone')}
        onChange={set('phone')}
      />
      <Field
        id="form-nie"
        autoComplete="off"
        label={intl.formatMessage({ id: 'registerForm.nie' })}
        hint={intl.formatMessage({ id: 'registerForm.nieHint' })}
        value={values.nie}
        error={errorOf('nie')}
        onChange={set('nie')}
      />
      <Button type="submit" loading={busy} data-testid="form-submit">
        <FormattedMessage id="registerForm.submit" />
      </Button>
      <Button variant="secondary" disabled={busy} onClick={onBack}>
        <FormattedMessage id="registerForm.back" />
      </Button>
      {footer}
    </form>
  );
}
