import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MANY_PEOPLE_ACTIONS, STAFF_ACTIONS } from '../../../contract/api/checks';
import type { StaffAction } from '../../../contract/api/staff-actions';
import { browserTimeZone, displayDateTimeIn, zoneOrUtc } from '../../../contract/domain/visits';
import { ListScreen } from '../../components/list-screen';
import { Button } from '../../components/ui/button';
import {
  decodeStaffActionsForm,
  EMPTY_STAFF_ACTIONS_FORM,
  encodeStaffActionsForm,
  type StaffActionsForm,
  staffActionsFilterOf,
} from '../../domain/staff-actions';
import { useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { ExportPanel } from './export-panel';

const PAGE_SIZE = 25;

function when(iso: string, timeZone: string): string {
  const zone = zoneOrUtc(timeZone);
  const shown = displayDateTimeIn(new Date(iso), zone);
  return zone === browserTimeZone() ? shown : `${shown} (${zone})`;
}

/** Whose data: the person's name while they are registered, else their id; many people for a tenant-wide action. */
function Whose({ action }: { action: StaffAction }) {
  if (action.subject_id === null) {
    // A visitor checked in without an account of their own is named nowhere but on the visit.
    return MANY_PEOPLE_ACTIONS.includes(action.action) ? (
      <FormattedMessage id="staffActions.everyone" />
    ) : (
      <FormattedMessage id="staffActions.noAccount" />
    );
  }
  if (action.subject_name) return <>{action.subject_name}</>;
  return (
    <FormattedMessage
      id="staffActions.personGone"
      values={{ id: <span className="font-mono text-xs">{action.subject_id}</span> }}
    />
  );
}

function FilterLabel({ name, messageId }: { name: keyof StaffActionsForm; messageId: string }) {
  return (
    <label htmlFor={`staff-actions-${name}`} className="text-sm font-medium text-slate-800">
      <FormattedMessage id={messageId} />
    </label>
  );
}

// min-w-0: a date input's own width would push the form past a 360-px phone.
const inputClass = 'h-11 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3';

/**
 * AuditAccesses' Staff actions tab (a page screen's tab): who of the staff did what to whose personal data, newest
 * first, filtered by staff member, person, action and days, paged, and exported as csv with exactly those rows.
 */
export function StaffActions() {
  const intl = useIntl();
  const tenantZone = useTenant().settings.timeZone;
  const logic = useScreenMachine('list.staffActions', tenantZone);
  const list = useActorRef(logic, { input: { pageSize: PAGE_SIZE } });
  const state = useSelector(list, (s) =>
    s.hasTag('busy') ? 'loading' : s.hasTag('error') ? 'failed' : 'ready',
  );
  const context = useSelector(list, (s) => s.context);
  const applied = decodeStaffActionsForm(context.filter);
  const [form, setForm] = useState<StaffActionsForm>(EMPTY_STAFF_ACTIONS_FORM);
  const actions = context.items as StaffAction[];
  const field = (name: keyof StaffActionsForm) => ({
    id: `staff-actions-${name}`,
    'data-testid': `staff-actions-${name}`,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.send({ type: 'filter.change', filter: encodeStaffActionsForm(form) });
  };
  return (
    <ListScreen
      screen="AuditAccesses"
      className="max-w-none"
      title={<FormattedMessage id="staffActions.title" />}
      actions={
        <ExportPanel
          machine="staffActionsExport"
          prefix="staff-actions"
          filter={staffActionsFilterOf(applied, tenantZone)}
          expected={state === 'ready' && !context.totalIsLowerBound ? context.totalItems : null}
        />
      }
      search={
        <form
          onSubmit={submit}
          className="mt-4 grid gap-3 sm:grid-cols-3 sm:items-end"
          data-testid="staff-actions-filters"
        >
          <div className="flex min-w-0 flex-col gap-1.5">
            <FilterLabel name="staff" messageId="staffActions.filter.staff" />
            <input type="search" className={inputClass} {...field('staff')} />
          </div>
          <div className="flex min-w-0 flex-col gap-1.5">
            <FilterLabel name="person" messageId="staffActions.filter.person" />
            <input type="search" className={inputClass} {...field('person')} />
          </div>
          <div className="flex min-w-0 flex-col gap-1.5">
            <FilterLabel name="action" messageId="staffActions.filter.action" />
            <select className={inputClass} {...field('action')}>
              <option value="">{intl.formatMessage({ id: 'staffActions.filter.anyAction' })}</option>
              {STAFF_ACTIONS.map((name) => (
                <option key={name} value={name}>
                  {intl.formatMessage({ id: `staffActions.action.${name}` })}
                </option>
              ))}
            </select>
          </div>
          <div className="flex min-w-0 flex-col gap-1.5">
            <FilterLabel name="fromDay" messageId="staffActions.filter.from" />
            <input type="date" className={inputClass} {...field('fromDay')} />
          </div>
          <div className="flex min-w-0 flex-col gap-1.5">
            <FilterLabel name="toDay" messageId="staffActions.filter.to" />
            <input type="date" className={inputClass} {...field('toDay')} />
          </div>
          <Button type="submit" data-testid="staff-actions-apply">
            <FormattedMessage id="staffActions.filter.apply" />
          </Button>
        </form>
      }
      state={state}
      context={context}
      list={list}
      loadingLabel={intl.formatMessage({ id: 'staffActions.loading' })}
      failedId="staffActions.listFailed"
      retryId="audit.retry"
      emptyId="staffActions.empty"
      emptyTestId="staff-actions-empty"
      pagerLabel={intl.formatMessage({ id: 'staffActions.pages' })}
      summaryTestId="staff-actions-summary"
    >
      <ul
        className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
        data-testid="staff-actions"
      >
        {actions.map((action) => (
          <li
            key={action.id}
            className="flex flex-col gap-0.5 p-3"
            data-testid="staff-action-row"
            data-action={action.action}
            data-subject-id={action.subject_id ?? ''}
          >
            <p className="font-medium">
              <FormattedMessage id={`staffActions.action.${action.action}`} />
              {' · '}
              <Whose action={action} />
            </p>
            <p className="text-sm text-slate-700">
              {action.staff_roles.length > 0 ? (
                <FormattedMessage
                  id="staffActions.by"
                  values={{
                    staff: action.staff_name ?? action.staff_id,
                    role: action.staff_roles
                      .map((role) => intl.formatMessage({ id: `staffActions.role.${role}` }))
                      .join(', '),
                  }}
                />
              ) : (
                <FormattedMessage
                  id="staffActions.byNoRole"
                  values={{ staff: action.staff_name ?? action.staff_id }}
                />
              )}
              {' · '}
              {when(action.at, tenantZone)}
            </p>
          </li>
        ))}
      </ul>
    </ListScreen>
  );
}
