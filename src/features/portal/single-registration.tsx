import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { SingleRegistrationBody } from '../../../contract/api/singles';
import { isEmail } from '../../../contract/domain/email';
import {
  acsIdSchemaOf,
  DELEGATED_IMAGE_DESIRED_BYTES,
  DELEGATED_IMAGE_MAX_BYTES,
  DELEGATED_IMAGE_MIN_BYTES,
  imageBounds,
  qrEmailAllowed,
  WIEGAND_MAX,
  WIEGAND_MIN,
} from '../../../contract/domain/singles';
import type { SingleMode, singleRegistrationMachine } from '../../../machines/single-registration.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FileInput } from '../../components/ui/file-input';
import { Spinner } from '../../components/ui/spinner';
import { errorText } from '../../i18n/error-text';
import { useTenant } from '../../runtime/context';
import { useFormDraft } from '../../runtime/form-draft';
import { useScreenMachine } from '../../runtime/machines';

// SingleRegistration (spec §2 new-user-credential, post_singles): renders machines/single-registration.

const M = defineMessages({
  'singles.acsId': { id: 'singles.acsId' },
  'singles.acsIdOptional': { id: 'singles.acsIdOptional' },
  'singles.birthDate': { id: 'singles.birthDate' },
  'singles.checkFailed': { id: 'singles.checkFailed' },
  'singles.checking': { id: 'singles.checking' },
  'singles.code.0': { id: 'singles.code.0' },
  'singles.code.1': { id: 'singles.code.1' },
  'singles.code.2': { id: 'singles.code.2' },
  'singles.code.3': { id: 'singles.code.3' },
  'singles.documentNumber': { id: 'singles.documentNumber' },
  'singles.documentType.driving_license': { id: 'singles.documentType.driving_license' },
  'singles.documentType.id_card': { id: 'singles.documentType.id_card' },
  'singles.documentType.others': { id: 'singles.documentType.others' },
  'singles.documentType.passport': { id: 'singles.documentType.passport' },
  'singles.email': { id: 'singles.email' },
  'singles.firstName': { id: 'singles.firstName' },
  'singles.free': { id: 'singles.free' },
  'singles.idNumber': { id: 'singles.idNumber' },
  'singles.imageChooseAgain': { id: 'singles.imageChooseAgain' },
  'singles.lastName': { id: 'singles.lastName' },
  'singles.mode.fields': { id: 'singles.mode.fields' },
  'singles.mode.image': { id: 'singles.mode.image' },
  'singles.rejected.document-expired': { id: 'singles.rejected.document-expired' },
  'singles.rejected.embedding-failed': { id: 'singles.rejected.embedding-failed' },
  'singles.rejected.id-already-used': { id: 'singles.rejected.id-already-used' },
  'singles.rejected.qr-generation-failed': { id: 'singles.rejected.qr-generation-failed' },
  'singles.rejected.unknown': { id: 'singles.rejected.unknown' },
  'singles.sending': { id: 'singles.sending' },
  'singles.username': { id: 'singles.username' },
  'singles.wiegandHint': { id: 'singles.wiegandHint' },
});
type MessageKey = keyof typeof M;
const TITLES = defineMessages({
  single: { id: 'screen.SingleRegistration' },
  delegated: { id: 'screen.DelegatedFinishRegister' },
});

type Snapshot = SnapshotFrom<typeof singleRegistrationMachine>;
type Actor = ActorRefFrom<typeof singleRegistrationMachine>;

interface FormValues {
  first_name: string;
  last_name: string;
  birth_date: string;
  document_type: 'id_card' | 'passport' | 'driving_license' | 'others';
  document_number: string;
  id_number: string;
  username: string;
  send_qr_by_email: boolean;
}

/** The form's values as a draft (formDraft keeps strings only). */
const TEXT_FIELDS = [
  'first_name',
  'last_name',
  'birth_date',
  'document_number',
  'id_number',
  'username',
] as const;
const DOCUMENT_TYPES = ['id_card', 'passport', 'driving_license', 'others'] as const;

function valuesOf(draft: Record<string, string> | null): FormValues {
  if (!draft) return EMPTY;
  const values: FormValues = { ...EMPTY, send_qr_by_email: draft.send_qr_by_email === 'true' };
  for (const field of TEXT_FIELDS) values[field] = draft[field] ?? '';
  const type = DOCUMENT_TYPES.find((t) => t === draft.document_type);
  if (type) values.document_type = type;
  return values;
}

/**
 * What was typed outlives a sign-out (a 401 on sending), as ActivateUsers' form does: in the tab's session, per
 * tenant and person. The photo of the face is biometric data and never goes there: the draft only remembers that
 * one was chosen, so that the form asks for it again in so many words.
 */
function useRegistrationDraft(delegated: boolean) {
  return useFormDraft(delegated ? 'delegatedFinishRegister' : 'singleRegistration');
}

const EMPTY: FormValues = {
  first_name: '',
  last_name: '',
  birth_date: '',
  document_type: 'id_card',
  document_number: '',
  id_number: '',
  username: '',
  send_qr_by_email: false,
};

function codeIn(snapshot: Snapshot, key: 'errorCode' | 'fieldError'): string | undefined {
  const metas = Object.values(snapshot.getMeta()) as (Record<string, unknown> | undefined)[];
  for (const meta of metas) if (typeof meta?.[key] === 'string') return meta[key] as string;
  return undefined;
}

/** The state of one region of the form (email or acsId) while editing: unchecked, waiting, checking, free, taken… */
function regionOf(snapshot: Snapshot, name: 'email' | 'acsId'): string | undefined {
  const value = snapshot.value as { editing?: Record<string, string> } | string;
  return typeof value === 'object' ? value.editing?.[name] : undefined;
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function SingleRegistration() {
  return <RegistrationScreen screen="SingleRegistration" delegated={false} />;
}

/**
 * SingleRegistration, and DelegatedFinishRegister (spec §2 delegated-finish-register): the delegated onboarding
 * from an image, the same flow in image mode with the delegated image bounds and errors.
 */
export function RegistrationScreen({
  screen,
  delegated,
}: {
  screen: 'SingleRegistration' | 'DelegatedFinishRegister';
  delegated: boolean;
}) {
  const { settings } = useTenant();
  const logic = useScreenMachine('singleRegistration');
  const actor = useActorRef(logic, {
    input: {
      acsIdSchema: acsIdSchemaOf(settings.acsIdSchema),
      qrEmailAllowed: qrEmailAllowed(settings),
      ...(delegated ? { mode: 'image' as const } : {}),
    },
  });
  const view = useSelector(actor, (s) =>
    s.matches('registered') ? 'registered' : s.matches('rejected') ? 'rejected' : 'form',
  );
  const draft = useRegistrationDraft(delegated);
  const registered = view === 'registered';
  const clearDraft = draft.clear;
  useEffect(() => {
    if (registered) clearDraft();
  }, [registered, clearDraft]);
  return (
    <section data-screen={screen} className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage {...(delegated ? TITLES.delegated : TITLES.single)} />
      </h1>
      {view === 'registered' && <Registered actor={actor} />}
      {view === 'rejected' && <Rejected actor={actor} />}
      {view === 'form' && <RegistrationForm actor={actor} delegated={delegated} />}
    </section>
  );
}

function Registered({ actor }: { actor: Actor }) {
  const result = useSelector(actor, (s) => s.context.result);
  return (
    <Card data-testid="single-registered">
      <p role="status" className="font-medium text-green-800">
        <FormattedMessage id="singles.registered" />
      </p>
      <p className="mt-2 text-slate-700">
        <FormattedMessage id="singles.userId" values={{ id: <code>{result?.user_id}</code> }} />
      </p>
      {result?.qr_emailed && (
        <p className="mt-2 text-slate-700">
          <FormattedMessage id="singles.qrEmailed" />
        </p>
      )}
      <Button className="mt-4" onClick={() => actor.send({ type: 'again' })}>
        <FormattedMessage id="singles.another" />
      </Button>
    </Card>
  );
}

function Rejected({ actor }: { actor: Actor }) {
  const error = useSelector(actor, (s) => codeIn(s, 'errorCode') ?? 'unknown');
  const code = useSelector(actor, (s) => s.context.result?.code ?? 0);
  const intl = useIntl();
  return (
    <Alert
      data-testid="single-rejected"
      message={intl.formatMessage(M[`singles.rejected.${error}` as MessageKey] as MessageDescriptor)}
    >
      <p className="text-sm">
        <FormattedMessage {...M[`singles.code.${code}` as MessageKey]} />
      </p>
      <div>
        <Button className="mt-2" variant="secondary" onClick={() => actor.send({ type: 'again' })}>
          <FormattedMessage id="singles.back" />
        </Button>
      </div>
    </Alert>
  );
}

function RegistrationForm({ actor, delegated }: { actor: Actor; delegated: boolean }) {
  const bounds = imageBounds(delegated);
  const intl = useIntl();
  const t = (id: MessageKey, values?: Record<string, string | number>) =>
    intl.formatMessage(M[id] as MessageDescriptor, values);
  const te = (code: string, values?: Record<string, string | number>, serverText?: string) =>
    errorText(intl, code, { ...(values ? { values } : {}), ...(serverText ? { serverText } : {}) });
  const mode = useSelector(actor, (s) => s.context.mode);
  const email = useSelector(actor, (s) => s.context.email);
  const acsId = useSelector(actor, (s) => s.context.acsId);
  const acsIdSchema = useSelector(actor, (s) => s.context.acsIdSchema);
  const mailAllowed = useSelector(actor, (s) => s.context.qrEmailAllowed);
  const serverErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const busySeconds = useSelector(actor, (s) =>
    s.matches('busy') ? Math.ceil(s.context.retryAfterMs / 1000) : null,
  );
  const acsFieldError = useSelector(actor, (s) => codeIn(s, 'fieldError'));
  const draft = useRegistrationDraft(delegated);
  const [saved] = useState(draft.load);
  const [values, setValues] = useState<FormValues>(() => valuesOf(saved));
  const [image, setImage] = useState<File | null>(null);
  // A photo was chosen before the session ended: it was not kept, and the form says to choose it again.
  const [photoNotKept, setPhotoNotKept] = useState(saved?.photo_chosen === 'true');
  // The draft's mode, email and acs_id live in the machine: given back once, which checks them again as typing does.
  useEffect(() => {
    if (!saved) return;
    const now = actor.getSnapshot().context;
    if (!delegated && (saved.mode === 'fields' || saved.mode === 'image') && saved.mode !== now.mode)
      actor.send({ type: 'mode.changed', mode: saved.mode });
    if (saved.email && now.email === '') actor.send({ type: 'email.changed', email: saved.email });
    if (saved.acs_id && now.acsId === '') actor.send({ type: 'acsId.changed', acsId: saved.acs_id });
  }, [actor, saved, delegated]);
  const saveDraft = draft.save;
  useEffect(() => {
    saveDraft({
      ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, values[field]])),
      document_type: values.document_type,
      send_qr_by_email: String(values.send_qr_by_email),
      mode,
      email,
      acs_id: acsId,
      photo_chosen: String(image !== null || photoNotKept),
    });
  }, [saveDraft, values, mode, email, acsId, image, photoNotKept]);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});

  const emailStatus = useSelector(actor, (s) => regionOf(s, 'email'));
  const acsStatus = useSelector(actor, (s) => regionOf(s, 'acsId'));
  const errorOf = (field: string): string | undefined => {
    const local = localErrors[field];
    if (local) return te(local);
    const server = serverErrors.find((e) => e.field === field);
    if (server) return te(server.code, undefined, server.text);
    if (field === 'email' && emailStatus === 'taken') return te('email_already_in_use');
    if (field === 'acs_id' && acsStatus === 'taken') return te('acs_id_already_in_use');
    if (field === 'acs_id' && acsFieldError) return te(acsFieldError, { min: WIEGAND_MIN, max: WIEGAND_MAX });
    return undefined;
  };
  const statusHint = (status: string | undefined) =>
    status === 'checking' || status === 'waiting'
      ? t('singles.checking')
      : status === 'free'
        ? t('singles.free')
        : // The check failed: nothing is known yet, and the person should not read silence as "free".
          status === 'unknown'
          ? t('singles.checkFailed')
          : undefined;
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: Record<string, string> = {};
    if (!isEmail(email.trim())) errors.email = email.trim() === '' ? 'required' : 'wrong_format';
    if (mode === 'fields') {
      for (const field of ['first_name', 'last_name', 'birth_date', 'document_number'] as const) {
        if (values[field].trim() === '') errors[field] = 'required';
      }
      if (values.document_number && !/^[A-Za-z0-9]{1,32}$/.test(values.document_number.trim()))
        errors.document_number = 'wrong_format';
    } else {
      if (values.username.trim() === '') errors.username = 'required';
      if (acsId.trim() === '') errors.acs_id = 'required';
      if (!image) errors.image = 'required';
      else if (!/^image\/(jpeg|png)$/.test(image.type)) errors.image = 'image_wrong_type';
      else if (image.size < bounds.min)
        errors.image = delegated ? 'delegated_image_too_small' : 'image_too_small';
      else if (image.size > bounds.max)
        errors.image = delegated ? 'delegated_image_too_large' : 'image_too_large';
    }
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0 || emailStatus === 'taken' || acsStatus === 'taken' || acsFieldError)
      return;
    const body: SingleRegistrationBody =
      mode === 'fields'
        ? {
            mode,
            email: email.trim(),
            acs_id: acsId.trim() || null,
            first_name: values.first_name.trim(),
            last_name: values.last_name.trim(),
            birth_date: values.birth_date,
            document_type: values.document_type,
            document_number: values.document_number.trim().toUpperCase(),
            id_number: values.id_number.trim().toUpperCase() || null,
            send_qr_by_email: mailAllowed && values.send_qr_by_email,
          }
        : {
            mode,
            email: email.trim(),
            acs_id: acsId.trim(),
            username: values.username.trim(),
            image: image ? await base64Of(image) : null,
            send_qr_by_email: mailAllowed && values.send_qr_by_email,
            ...(delegated ? { delegated: true } : {}),
          };
    actor.send({ type: 'submit', body });
  };

  return (
    <Card aria-busy={busy}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="single-form">
        {!delegated && (
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-2 text-sm font-medium text-slate-800">
              <FormattedMessage id="singles.mode" />
            </legend>
            {(['fields', 'image'] as SingleMode[]).map((value) => (
              <label key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="mode"
                  value={value}
                  className="size-5"
                  checked={mode === value}
                  onChange={() => {
                    setLocalErrors({});
                    actor.send({ type: 'mode.changed', mode: value });
                  }}
                />
                <FormattedMessage {...M[`singles.mode.${value}` as MessageKey]} />
              </label>
            ))}
          </fieldset>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {mode === 'fields' ? (
            <>
              <Field
                label={t('singles.firstName')}
                name="first_name"
                autoComplete="off"
                value={values.first_name}
                error={errorOf('first_name')}
                onChange={(e) => set('first_name', e.target.value)}
              />
              <Field
                label={t('singles.lastName')}
                name="last_name"
                autoComplete="off"
                value={values.last_name}
                error={errorOf('last_name')}
                onChange={(e) => set('last_name', e.target.value)}
              />
              <Field
                label={t('singles.birthDate')}
                name="birth_date"
                type="date"
                value={values.birth_date}
                error={errorOf('birth_date')}
                onChange={(e) => set('birth_date', e.target.value)}
              />
              <div className="flex flex-col gap-1.5">
                <label htmlFor="single-document-type" className="text-sm font-medium text-slate-800">
                  <FormattedMessage id="singles.documentType" />
                </label>
                <select
                  id="single-document-type"
                  name="document_type"
                  className="h-11 rounded-lg border border-slate-300 bg-white px-3"
                  value={values.document_type}
                  onChange={(e) => set('document_type', e.target.value as FormValues['document_type'])}
                >
                  {(['id_card', 'passport', 'driving_license', 'others'] as const).map((type) => (
                    <option key={type} value={type}>
                      {t(`singles.documentType.${type}`)}
                    </option>
                  ))}
                </select>
              </div>
              <Field
                label={t('singles.documentNumber')}
                name="document_number"
                autoComplete="off"
                value={values.document_number}
                error={errorOf('document_number')}
                onChange={(e) => set('document_number', e.target.value)}
              />
              <Field
                label={t('singles.idNumber')}
                name="id_number"
                autoComplete="off"
                value={values.id_number}
                error={errorOf('id_number')}
                onChange={(e) => set('id_number', e.target.value)}
              />
            </>
          ) : (
            <Field
              label={t('singles.username')}
              name="username"
              autoComplete="off"
              value={values.username}
              error={errorOf('username')}
              onChange={(e) => set('username', e.target.value)}
            />
          )}
          <Field
            label={t('singles.email')}
            name="email"
            type="email"
            autoComplete="off"
            value={email}
            error={errorOf('email')}
            hint={errorOf('email') ? undefined : statusHint(emailStatus)}
            onChange={(e) => {
              setLocalErrors(({ email: _, ...rest }) => rest);
              actor.send({ type: 'email.changed', email: e.target.value });
            }}
          />
          <Field
            label={t(mode === 'fields' ? 'singles.acsIdOptional' : 'singles.acsId')}
            name="acs_id"
            autoComplete="off"
            inputMode={acsIdSchema === 'wiegand' ? 'numeric' : undefined}
            value={acsId}
            error={errorOf('acs_id')}
            hint={
              errorOf('acs_id')
                ? undefined
                : (statusHint(acsStatus) ??
                  (acsIdSchema === 'wiegand'
                    ? t('singles.wiegandHint', { min: WIEGAND_MIN, max: WIEGAND_MAX })
                    : undefined))
            }
            onChange={(e) => {
              setLocalErrors(({ acs_id: _, ...rest }) => rest);
              actor.send({ type: 'acsId.changed', acsId: e.target.value });
            }}
          />
          {mode === 'image' && (
            <div className="flex min-w-0 flex-col gap-1.5">
              <label htmlFor="single-image" className="text-sm font-medium text-slate-800">
                <FormattedMessage id="singles.image" />
              </label>
              <FileInput
                id="single-image"
                name="image"
                accept="image/jpeg,image/png"
                aria-invalid={errorOf('image') ? true : undefined}
                aria-describedby={errorOf('image') ? 'single-image-error' : 'single-image-hint'}
                onChange={(e) => {
                  setLocalErrors(({ image: _, ...rest }) => rest);
                  setImage(e.target.files?.[0] ?? null);
                  setPhotoNotKept(false);
                }}
              />
              {errorOf('image') ? (
                <p id="single-image-error" className="text-sm text-red-700">
                  {errorOf('image')}
                </p>
              ) : photoNotKept && !image ? (
                <p
                  id="single-image-hint"
                  role="status"
                  className="text-sm font-medium text-amber-800"
                  data-testid="single-image-choose-again"
                >
                  <FormattedMessage {...M['singles.imageChooseAgain']} />
                </p>
              ) : (
                <p id="single-image-hint" className="text-sm text-slate-600">
                  {delegated ? (
                    <FormattedMessage
                      id="singles.delegatedImageHint"
                      values={{
                        min: intl.formatNumber(DELEGATED_IMAGE_MIN_BYTES),
                        desired: intl.formatNumber(DELEGATED_IMAGE_DESIRED_BYTES),
                        max: intl.formatNumber(DELEGATED_IMAGE_MAX_BYTES),
                      }}
                    />
                  ) : (
                    <FormattedMessage id="singles.imageHint" />
                  )}
                </p>
              )}
            </div>
          )}
        </div>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="send_qr_by_email"
            className="mt-1 size-5"
            disabled={!mailAllowed}
            checked={mailAllowed && values.send_qr_by_email}
            aria-describedby={mailAllowed ? undefined : 'single-mail-hint'}
            onChange={(e) => set('send_qr_by_email', e.target.checked)}
          />
          <span>
            <FormattedMessage id="singles.sendQrByEmail" />
            {!mailAllowed && (
              <span id="single-mail-hint" className="block text-sm text-slate-600">
                <FormattedMessage id="common.errors.email_delivery_not_allowed" />
              </span>
            )}
          </span>
        </label>
        {failed && <Alert message={intl.formatMessage({ id: 'singles.failed' })} />}
        {busySeconds !== null && (
          <p role="status" className="font-medium text-slate-800" data-testid="single-busy">
            <FormattedMessage id="singles.busy" values={{ seconds: busySeconds }} />
          </p>
        )}
        {serverErrors.some((e) => e.field === 'body') && <Alert message={errorOf('body') ?? ''} />}
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={busy}>
            <FormattedMessage id="singles.submit" />
          </Button>
          {busy && <Spinner label={t('singles.sending')} />}
        </div>
      </form>
    </Card>
  );
}
