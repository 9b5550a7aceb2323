import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import type { Facility } from '../../../contract/api/facilities';
import type { NewVisitRequest } from '../../../contract/api/visits';
import {
  type NewVisitForm,
  type VisitField,
  type VisitFieldErrors,
  visitFormErrors,
  zonedInstant,
} from '../../../contract/domain/visits';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { errorText } from '../../i18n/error-text';
import { useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { detailHref } from './list';
import { isReceptionist, StatusBadge, useSession, VisitTitle, VisitWhen } from './parts';

const FIELD_ORDER: VisitField[] = [
  'host',
  'date',
  'startAt',
  'endAt',
  'location',
  'title',
  'visitorName',
  'visitorEmail',
  'guests',
  'planRead',
];

function toRequest(form: NewVisitForm, facility: Facility): NewVisitRequest {
  const start = zonedInstant(form.date, form.startAt, facility.timezone) as Date;
  const end = zonedInstant(form.date, form.endAt, facility.timezone) as Date;
  return {
    ...(form.title.trim() ? { title: form.title.trim() } : {}),
    start_at: start.toISOString(),
    end_at: end.toISOString(),
    host: form.host.trim(),
    visitor: { name: form.visitorName.trim(), email: form.visitorEmail.trim() },
    location: facility.facility_id,
    guests: Number(form.guests.trim() || '0'),
    extra_fields: { emergency_instructions: { accepted: form.planRead } },
  };
}

/**
 * NewVisit (new-visit/{userId?}): every rule of spec §5 is checked as the person types (a field shows its
 * message once touched, all of them on Send) and again by the server (422 codes on the same fields). What was
 * typed is kept in the tab's sessionStorage: a failed send or a reload loses nothing.
 */
export function NewVisit() {
  const intl = useIntl();
  const { tenant, settings } = useTenant();
  const session = useSession();
  const userKey = session?.userId ?? 'anonymous';
  const reception = isReceptionist(session);
  // new-visit/{userId}: reception books for a known person, whose name and email fill the visitor.
  const { userId } = useParams<{ userId?: string }>();
  // A visitor requests for themself: the server records their account's name and email whatever the form
  // says, so the form shows those (read-only) rather than what a draft or the person typed.
  const ownName = reception ? undefined : (session?.name ?? '');
  const ownEmail = reception ? undefined : (session?.email ?? '');
  const newVisitDraft = useScreenMachine('visitDraft');
  const [form, setForm] = useState<NewVisitForm>(() => {
    const draft = newVisitDraft.load(tenant, userKey);
    if (ownName !== undefined && ownEmail !== undefined) {
      draft.visitorName = ownName;
      draft.visitorEmail = ownEmail;
    }
    return draft;
  });
  const [touched, setTouched] = useState<Partial<Record<VisitField, boolean>>>({});
  const [submitted, setSubmitted] = useState<NewVisitForm | null>(null);
  const placesLogic = useScreenMachine('visitFacilities', settings.visits.locations);
  const places = useActorRef(placesLogic);
  const facilities = useSelector(places, (s) => (s.matches('loaded') ? s.context.facilities : undefined));
  const facilitiesLoading = useSelector(places, (s) => s.hasTag('busy'));
  const facilitiesFailed = useSelector(places, (s) => s.hasTag('error'));
  const logic = useScreenMachine('visitRequest', () => newVisitDraft.clear(tenant, userKey));
  const visit = useActorRef(logic, {
    input: reception && userId ? { userId } : {},
  });
  const view = useSelector(visit, (s) => ({
    drafting: s.matches('draft'),
    busy: s.hasTag('busy'),
    prefilling: s.matches({ draft: 'prefilling' }),
    visitorNotFound: s.matches({ draft: 'visitorNotFound' }),
    invalid: s.matches({ draft: 'invalid' }),
    failed: s.matches({ draft: 'failed' }),
    refused: s.matches({ draft: 'refused' }),
  }));
  const refusal = useSelector(visit, (s) => ({ code: s.context.code, text: s.context.serverText }));
  const serverErrors = useSelector(visit, (s) => s.context.fieldErrors);
  const created = useSelector(visit, (s) => s.context.visit);
  const visitor = useSelector(visit, (s) => s.context.visitor);

  // A renewed token may carry a changed name or email.
  useEffect(() => {
    if (ownName === undefined || ownEmail === undefined) return;
    setForm((current) =>
      current.visitorName === ownName && current.visitorEmail === ownEmail
        ? current
        : { ...current, visitorName: ownName, visitorEmail: ownEmail },
    );
  }, [ownName, ownEmail]);

  // The person the visit is for fills the visitor's name and email (typed over, they stay as typed).
  useEffect(() => {
    if (!visitor) return;
    setForm((current) => ({ ...current, visitorName: visitor.name, visitorEmail: visitor.email }));
  }, [visitor]);
  // Opened for somebody unknown: a visitor left from an earlier draft is not that person.
  useEffect(() => {
    if (view.visitorNotFound) setForm((current) => ({ ...current, visitorName: '', visitorEmail: '' }));
  }, [view.visitorNotFound]);

  useEffect(() => {
    if (view.drafting) newVisitDraft.save(tenant, userKey, form);
  }, [newVisitDraft, form, tenant, userKey, view.drafting]);

  const localErrors: VisitFieldErrors = useMemo(
    () =>
      visitFormErrors(form, {
        now: new Date(),
        facilities: facilities ?? [],
        mustAcceptPlan: settings.visits.mustAcceptPlan,
      }),
    [form, facilities, settings.visits.mustAcceptPlan],
  );

  /** The message of a field: its rule broken now, else the server's while the field is as it was sent. */
  const errorOf = (field: VisitField): string | undefined => {
    const local = touched[field] ? localErrors[field] : undefined;
    const server = submitted && submitted[field] === form[field] ? serverErrors[field] : undefined;
    const code = local ?? server;
    return code ? errorText(intl, code) : undefined;
  };

  const change = (field: VisitField, value: string | boolean) => {
    setForm((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
    if (view.invalid || view.failed || view.refused) visit.send({ type: 'visit.edit' });
  };
  const text = (field: Exclude<VisitField, 'planRead'>) => ({
    name: field,
    value: form[field],
    error: errorOf(field),
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
    onBlur: () => setTouched((current) => ({ ...current, [field]: true })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(Object.fromEntries(FIELD_ORDER.map((f) => [f, true])));
    const facility = facilities?.find((f) => f.facility_id === form.location);
    const first = FIELD_ORDER.find((field) => localErrors[field]);
    if (first || !facility) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${first ?? 'location'}"]`)?.focus();
      return;
    }
    setSubmitted(form);
    visit.send({ type: 'visit.submit', request: toRequest(form, facility) });
  };

  if (!view.drafting && created) {
    return (
      <section data-screen="NewVisit" className="mx-auto max-w-xl">
        <Card>
          <h1 className="text-2xl font-semibold" data-testid="new-visit-done">
            {created.status === 'requested' ? (
              <FormattedMessage id="newVisit.requested" />
            ) : (
              <FormattedMessage id="newVisit.accepted" />
            )}
          </h1>
          <p className="mt-2 text-slate-700">
            <VisitTitle visit={created} /> · <VisitWhen visit={created} /> · {created.location.alias}
          </p>
          <p className="mt-2">
            <StatusBadge status={created.status} />
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link href={detailHref(created)} className={buttonVariants()} data-testid="new-visit-detail">
              <FormattedMessage id="newVisit.seeDetail" />
            </Link>
            <Link
              href={pathFor(reception ? 'VisitList' : 'MyVisits') ?? '/'}
              className={buttonVariants({ variant: 'secondary' })}
            >
              <FormattedMessage id={reception ? 'screen.VisitList' : 'screen.MyVisits'} />
            </Link>
          </div>
        </Card>
      </section>
    );
  }

  const facility = facilities?.find((f) => f.facility_id === form.location);
  return (
    <section data-screen="NewVisit" className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.NewVisit" />
      </h1>
      {view.prefilling && <Spinner label={intl.formatMessage({ id: 'newVisit.loadingVisitor' })} />}
      {visitor && (
        <p className="mt-2 text-slate-700" data-testid="new-visit-for">
          <FormattedMessage id="newVisit.forVisitor" values={{ name: visitor.name }} />
        </p>
      )}
      {view.visitorNotFound && (
        <Alert
          tone="warning"
          className="mt-4"
          message={intl.formatMessage({ id: 'common.errors.visitor_not_found' })}
          data-testid="new-visit-visitor-missing"
        />
      )}
      {view.invalid && (
        <Alert
          className="mt-4"
          message={intl.formatMessage({ id: 'common.errors.validation' })}
          data-testid="new-visit-invalid"
        />
      )}
      {view.failed && <Alert className="mt-4" message={intl.formatMessage({ id: 'newVisit.failed' })} />}
      {view.refused && (
        <Alert
          className="mt-4"
          title={intl.formatMessage({ id: 'newVisit.failed' })}
          message={errorText(intl, refusal.code, { serverText: refusal.text })}
          data-testid="new-visit-refused"
        />
      )}
      <form noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4" data-testid="new-visit-form">
        <Field
          label={intl.formatMessage({ id: 'newVisit.host' })}
          type="email"
          autoComplete="off"
          {...text('host')}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="visit-location" className="text-sm font-medium text-slate-800">
            <FormattedMessage id="newVisit.location" />
          </label>
          {facilitiesLoading && (
            // The list's height while it loads, so that the fields below do not move when it comes.
            <div className="flex h-11 items-center">
              <Spinner label={intl.formatMessage({ id: 'newVisit.loadingLocations' })} />
            </div>
          )}
          {facilitiesFailed && (
            <Alert
              className="text-sm"
              message={intl.formatMessage({ id: 'newVisit.locationsFailed' })}
              data-testid="new-visit-locations-failed"
            >
              <Button
                type="button"
                variant="secondary"
                size="sm"
                className="mt-2"
                onClick={() => places.send({ type: 'facilities.retry' })}
              >
                <FormattedMessage id="newVisit.locationsRetry" />
              </Button>
            </Alert>
          )}
          {facilities !== undefined && (
            <select
              id="visit-location"
              name="location"
              className="h-11 rounded-lg border border-slate-300 bg-white px-3 aria-[invalid=true]:border-red-600"
              value={form.location}
              aria-invalid={errorOf('location') ? true : undefined}
              aria-describedby={errorOf('location') ? 'visit-location-error' : undefined}
              onChange={(event) => change('location', event.target.value)}
            >
              <option value="">{intl.formatMessage({ id: 'newVisit.chooseLocation' })}</option>
              {facilities.map((f) => (
                <option key={f.facility_id} value={f.facility_id}>
                  {f.alias} ({f.timezone})
                </option>
              ))}
            </select>
          )}
          {errorOf('location') && (
            <p id="visit-location-error" className="text-sm text-red-700">
              {errorOf('location')}
            </p>
          )}
        </div>
        <Field
          label={intl.formatMessage({ id: 'newVisit.date' })}
          type="date"
          hint={
            facility
              ? intl.formatMessage({ id: 'newVisit.timezone' }, { timezone: facility.timezone })
              : undefined
          }
          {...text('date')}
        />
        <div className="grid grid-cols-2 gap-3">
          <Field label={intl.formatMessage({ id: 'newVisit.startAt' })} type="time" {...text('startAt')} />
          <Field label={intl.formatMessage({ id: 'newVisit.endAt' })} type="time" {...text('endAt')} />
        </div>
        <Field label={intl.formatMessage({ id: 'newVisit.title' })} autoComplete="off" {...text('title')} />
        <Field
          label={intl.formatMessage({ id: 'newVisit.visitorName' })}
          autoComplete="name"
          readOnly={!reception}
          {...text('visitorName')}
        />
        <Field
          label={intl.formatMessage({ id: 'newVisit.visitorEmail' })}
          type="email"
          autoComplete="email"
          readOnly={!reception}
          hint={reception ? undefined : intl.formatMessage({ id: 'newVisit.visitorFromAccount' })}
          {...text('visitorEmail')}
        />
        <Field
          label={intl.formatMessage({ id: 'newVisit.guests' })}
          type="number"
          inputMode="numeric"
          min={0}
          max={99}
          {...text('guests')}
        />
        <div className="flex flex-col gap-1.5">
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              name="planRead"
              className="mt-1 size-5"
              checked={form.planRead}
              aria-invalid={errorOf('planRead') ? true : undefined}
              aria-describedby={errorOf('planRead') ? 'visit-plan-error' : undefined}
              onChange={(event) => change('planRead', event.target.checked)}
            />
            <span>
              {settings.visits.mustAcceptPlan ? (
                <FormattedMessage id="newVisit.planRequired" />
              ) : (
                <FormattedMessage id="newVisit.plan" />
              )}
            </span>
          </label>
          {errorOf('planRead') && (
            <p id="visit-plan-error" className="text-sm text-red-700">
              {errorOf('planRead')}
            </p>
          )}
        </div>
        {/* Without the places, a request cannot be built (its place's timezone): Send waits for them, rather than do
            nothing when pressed while they load. */}
        <Button type="submit" disabled={view.busy || facilitiesLoading} data-testid="new-visit-submit">
          <FormattedMessage id="newVisit.submit" />
        </Button>
      </form>
    </section>
  );
}
