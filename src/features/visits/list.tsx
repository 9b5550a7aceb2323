import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { Visit } from '../../../contract/api/visits';
import {
  decodeVisitFilter,
  defaultVisitFilter,
  encodeVisitFilter,
  VISIT_PRESETS,
  type VisitFilter,
} from '../../../contract/domain/visits';
import { ListScreen } from '../../components/list-screen';
import { PresetButtons } from '../../components/preset-buttons';
import { Button, buttonVariants } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { PAGE_SIZES } from '../../domain/lists';
import { pathFor } from '../../domain/screens';
import { useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { isReceptionist, StatusBadge, useSession, VisitTitle, VisitWhen } from './parts';
import { VisitActions } from './visit-actions';

const PAGE_SIZE = PAGE_SIZES.visits;

const ORDERS = ['expected_at.asc', 'expected_at.desc', 'visitor.asc', 'host.asc', 'status.asc'] as const;

export const detailHref = (visit: Pick<Visit, 'id'>) =>
  `${pathFor('VisitDetail')}?data=${encodeURIComponent(visit.id)}`;

/** One visit of the list, with the actions its state and the person's role allow. */
function VisitRow({ visit, reception }: { visit: Visit; reception: boolean }) {
  const logic = useScreenMachine('visit');
  const actor = useActorRef(logic, { input: { visitId: visit.id, visit } });
  const current = useSelector(actor, (s) => s.context.visit) ?? visit;
  return (
    <li className="flex flex-col gap-3 p-4" data-testid="visit-row" data-visit-id={visit.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-medium">
            <Link href={detailHref(current)} className="text-brand underline-offset-2 hover:underline">
              <VisitTitle visit={current} />
            </Link>
          </p>
          <p className="text-sm text-slate-700">
            <VisitWhen visit={current} /> · {current.location.alias}
          </p>
          <p className="text-sm text-slate-700">
            <FormattedMessage
              id="visits.row.people"
              values={{
                visitor: current.visitorData.name ?? current.visitorData.email ?? '—',
                host: current.host.name ?? current.host.email,
              }}
            />
          </p>
        </div>
        <StatusBadge status={current.status} />
      </div>
      <VisitActions actor={actor} reception={reception} via="reception" />
    </li>
  );
}

/**
 * VisitList (reception, every visit) and MyVisits (an enrolled visitor's own): one screen on the list machine
 * (spec §2, §9 presets and summary), filtered by date preset, visitor and host, and ordered.
 */
export function VisitsScreen({ screen }: { screen: 'VisitList' | 'MyVisits' }) {
  const intl = useIntl();
  const session = useSession();
  const reception = isReceptionist(session) && screen === 'VisitList';
  const { settings } = useTenant();
  const logic = useScreenMachine('list.visits', settings.timeZone);
  const list = useActorRef(logic, { input: { pageSize: PAGE_SIZE } });
  const state = useSelector(list, (s) =>
    s.hasTag('busy') ? 'loading' : s.hasTag('error') ? 'failed' : 'ready',
  );
  const context = useSelector(list, (s) => s.context);
  const applied = context.filter ? decodeVisitFilter(context.filter) : defaultVisitFilter();
  const [visitor, setVisitor] = useState('');
  const [host, setHost] = useState('');
  const visits = context.items as Visit[];

  const apply = (change: Partial<VisitFilter>) =>
    list.send({ type: 'filter.change', filter: encodeVisitFilter({ ...applied, ...change }) });
  const search = (event: FormEvent) => {
    event.preventDefault();
    apply({ visitor, host });
  };

  return (
    <ListScreen
      screen={screen}
      title={<FormattedMessage id={`screen.${screen}`} />}
      actions={
        <Link
          href={pathFor('NewVisit') ?? '/'}
          className={buttonVariants({ size: 'sm' })}
          data-testid="new-visit-link"
        >
          <FormattedMessage id="visits.new" />
        </Link>
      }
      search={
        <>
          <PresetButtons
            legendId="visits.presets"
            testId="visit-presets"
            presets={VISIT_PRESETS}
            messagePrefix="visits.preset."
            applied={applied.preset}
            timeZone={settings.timeZone}
            onPick={(preset) => apply({ preset })}
          />
          <form onSubmit={search} className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end">
            {reception && (
              <Field
                label={intl.formatMessage({ id: 'visits.filter.visitor' })}
                value={visitor}
                onChange={(event) => setVisitor(event.target.value)}
                type="search"
                autoComplete="off"
              />
            )}
            <Field
              label={intl.formatMessage({ id: 'visits.filter.host' })}
              value={host}
              onChange={(event) => setHost(event.target.value)}
              type="search"
              autoComplete="off"
            />
            <div className="flex flex-col gap-1.5">
              <label htmlFor="visit-order" className="text-sm font-medium text-slate-800">
                <FormattedMessage id="visits.order" />
              </label>
              <select
                id="visit-order"
                className="h-11 rounded-lg border border-slate-300 bg-white px-3"
                value={`${applied.orderby}.${applied.sorted}`}
                onChange={(event) => {
                  const [orderby, sorted] = event.target.value.split('.') as [
                    VisitFilter['orderby'],
                    'asc' | 'desc',
                  ];
                  apply({ orderby, sorted });
                }}
              >
                {ORDERS.map((order) => (
                  <option key={order} value={order}>
                    {intl.formatMessage({ id: `visits.order.${order}` })}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit">
              <FormattedMessage id="visits.filter.apply" />
            </Button>
          </form>
        </>
      }
      state={state}
      context={context}
      list={list}
      loadingLabel={intl.formatMessage({ id: 'visits.loading' })}
      failedId="visits.listFailed"
      retryId="visits.retry"
      emptyId="visits.empty"
      emptyTestId="visits-empty"
      pagerLabel={intl.formatMessage({ id: 'visits.pages' })}
      summaryTestId="visits-summary"
    >
      <ul
        className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
        data-testid="visits"
      >
        {visits.map((visit) => (
          <VisitRow key={visit.id} visit={visit} reception={reception} />
        ))}
      </ul>
    </ListScreen>
  );
}
