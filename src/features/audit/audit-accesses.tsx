import * as Tabs from '@radix-ui/react-tabs';
import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { AuditAccess } from '../../../contract/api/audit';
import { formatDate } from '../../../contract/domain/dates';
import { browserTimeZone, displayDateTimeIn, zoneOrUtc } from '../../../contract/domain/visits';
import { hasRole } from '../../auth/access';
import { ListScreen } from '../../components/list-screen';
import { PresetButtons } from '../../components/preset-buttons';
import { Button } from '../../components/ui/button';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import {
  AUDIT_PRESETS,
  type AuditListFilter,
  apiFilterOf,
  auditFilterAt,
  decodeAuditFilter,
  encodeAuditFilter,
} from '../../domain/audit';
import { PAGE_SIZES } from '../../domain/lists';
import { toSafeSameOriginPath } from '../../domain/safe-link';
import { useRuntime, useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { screenOpenedAt } from '../../runtime/opened-at';
import { useSettledSelector } from '../../runtime/settled-selector';
import { ExportPanel } from './export-panel';
import { StaffActions } from './staff-actions';

const PAGE_SIZE = PAGE_SIZES.audit;

/**
 * An access's time in its facility's timezone (as visits show theirs), with the zone named when the browser is in
 * another one; without a facility zone, the tenant's.
 */
function dateTimeIn(iso: string | null, timeZone: string): string {
  if (!iso) return '—';
  const zone = zoneOrUtc(timeZone);
  const shown = displayDateTimeIn(new Date(iso), zone);
  return zone === browserTimeZone() ? shown : `${shown} (${zone})`;
}
const date = (iso: string | null) => (iso ? formatDate(new Date(`${iso}T00:00:00`)) : '—');

function ResultBadge({ access }: { access: AuditAccess }) {
  const granted = access.access_type === 'granted';
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-sm font-medium ${
        granted ? 'bg-emerald-100 text-emerald-900' : 'bg-red-100 text-red-900'
      }`}
      data-testid="audit-result"
      data-result={access.access_type}
    >
      <FormattedMessage id={`audit.result.${access.access_type}`} />
    </span>
  );
}

/** Who came: the entity's name when the tenant's auditAccessesLevel shows it, else the user id (or nobody known). */
function Who({ access }: { access: AuditAccess }) {
  const name = [access.entity?.name, access.entity?.surname].filter(Boolean).join(' ');
  if (name) return <>{name}</>;
  if (access.user_id) return <span className="font-mono text-xs">{access.user_id}</span>;
  return <FormattedMessage id="audit.unknownPerson" />;
}

/**
 * The source of the decision (spec §3 enforcement source URL): the watchlist version that refused the person, opened
 * inside the portal. The URL comes from the API, so it is followed only as a path of this origin (never another
 * host or a scheme: no open redirect); anything else is shown as text.
 */
function EnforcementLink({ url }: { url: string | null }) {
  if (!url) return <>—</>;
  const path = toSafeSameOriginPath(url);
  return path ? (
    <Link href={path} className="text-brand-strong underline" data-testid="audit-source-link">
      <FormattedMessage id="audit.source.open" />
    </Link>
  ) : (
    <span className="break-all">{url}</span>
  );
}

/** One entry's detail (spec §3 Audit access): every field, the entity as far as the tenant's level shows it. */
function AccessDetail({ access, tenantZone }: { access: AuditAccess; tenantZone: string }) {
  const intl = useIntl();
  const e = access.entity;
  const rows: [string, ReactNode][] = [
    ['created_at', dateTimeIn(access.created_at, access.facility.timezone ?? tenantZone)],
    ['user_id', access.user_id ?? '—'],
    [
      'doc_type',
      intl.formatMessage(
        { id: access.doc_type === 'access' ? 'audit.docType.access' : 'audit.docType.other' },
        { value: access.doc_type },
      ),
    ],
    ['facility', access.facility.alias],
    ['access_type', <ResultBadge key="r" access={access} />],
    ['reason', intl.formatMessage({ id: `audit.reason.${access.reason}`, defaultMessage: access.reason })],
    ['enforcement_source_url', <EnforcementLink key="l" url={access.enforcement_source_url} />],
  ];
  const entity: [string, ReactNode][] = e
    ? [
        ['name', e.name ?? '—'],
        ['surname', e.surname ?? '—'],
        ['birth_date', date(e.birth_date)],
        ['document_type', e.document_type ?? '—'],
        ['document_number', e.document_number ?? '—'],
        ['id_number', e.id_number ?? '—'],
        ['registration_date', dateTimeIn(e.registration_date, tenantZone)],
        ['watchlists_check_mode', e.watchlists_check_mode ?? '—'],
        ['watchlists_checked', e.watchlists_checked.length > 0 ? e.watchlists_checked.join(', ') : '—'],
        ['enforcement_source', e.enforcement_source ?? '—'],
      ]
    : [];
  const list = (items: [string, ReactNode][]) => (
    <dl className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-4 gap-y-1.5 text-sm">
      {items.map(([field, value]) => (
        <div key={field} className="contents">
          <dt className="text-slate-600">
            <FormattedMessage id={`audit.field.${field}`} />
          </dt>
          <dd className="min-w-0 break-words" data-field={field}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
  return (
    <div className="flex flex-col gap-4" data-testid="audit-detail-fields">
      {list(rows)}
      <h3 className="font-semibold">
        <FormattedMessage id="audit.entity" />
      </h3>
      {e ? (
        list(entity)
      ) : (
        <p className="text-sm text-slate-700" data-testid="audit-entity-hidden">
          <FormattedMessage id="audit.entityHidden" />
        </p>
      )}
    </div>
  );
}

/**
 * AuditAccesses (spec §2 audit-accesses; §3 Audit access; §7 GET and POST /public/audit_accesses), a page screen:
 * the door decisions and, for the auditor of the whole tenant (post_audit_accesses_all), a second tab with the
 * record of staff actions on personal data.
 */
export function AuditAccesses() {
  const intl = useIntl();
  const runtime = useRuntime();
  const roles = useSelector(runtime.session, (s) => s.context.session?.roles ?? []);
  const [tab, setTab] = useState<string>('accesses');
  if (!hasRole({ roles }, 'post_audit_accesses_all')) return <Accesses />;
  return (
    <Tabs.Root value={tab} onValueChange={setTab} className="mx-auto max-w-4xl">
      <Tabs.List
        className="mb-4 flex flex-wrap gap-1 border-b border-slate-200"
        aria-label={intl.formatMessage({ id: 'staffActions.tabs' })}
      >
        {(['accesses', 'staff'] as const).map((name) => (
          <Tabs.Trigger
            key={name}
            value={name}
            data-testid={`audit-tab-${name}`}
            className="-mb-px border-b-2 border-transparent px-4 py-2 font-medium text-slate-700 data-[state=active]:border-brand data-[state=active]:text-slate-900"
          >
            <FormattedMessage id={`staffActions.tab.${name}`} />
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="accesses">
        <Accesses />
      </Tabs.Content>
      <Tabs.Content value="staff">
        <StaffActions />
      </Tabs.Content>
    </Tabs.Root>
  );
}

/**
 * The door decisions, newest first, with date presets, facility and result filters, pages, each entry's detail and
 * the csv export of exactly the filtered rows. post_audit_accesses_all sees every facility; post_accesses_myscope
 * only the caller's own (the server decides; the facility filter offers only those).
 */
function Accesses() {
  const intl = useIntl();
  const runtime = useRuntime();
  const tenantZone = useTenant().settings.timeZone;
  const roles = useSelector(runtime.session, (s) => s.context.session?.roles ?? []);
  const mine = !hasRole({ roles }, 'post_audit_accesses_all');
  // The first page and the first export share one instant: the default range ends when the screen opened.
  const [initial] = useState(screenOpenedAt);
  const logic = useScreenMachine('list.audit', tenantZone, () => initial);
  const list = useActorRef(logic, { input: { pageSize: PAGE_SIZE } });
  const facilitiesLogic = useScreenMachine('auditFacilities', mine);
  const facilitiesActor = useActorRef(facilitiesLogic);
  const facilities = useSettledSelector(facilitiesActor, (s) => (s.status === 'done' ? s.output : []));
  const state = useSelector(list, (s) =>
    s.hasTag('busy') ? 'loading' : s.hasTag('error') ? 'failed' : 'ready',
  );
  const context = useSelector(list, (s) => s.context);
  const applied = decodeAuditFilter(context.filter, initial, tenantZone);
  const accesses = context.items as AuditAccess[];
  const [selected, setSelected] = useState<AuditAccess | null>(null);

  const apply = (change: Partial<Pick<AuditListFilter, 'preset' | 'facility_id' | 'result'>>) => {
    const next = { ...applied, ...change };
    list.send({
      type: 'filter.change',
      filter: encodeAuditFilter(
        auditFilterAt(next.preset, new Date(), tenantZone, {
          ...(next.facility_id ? { facility_id: next.facility_id } : {}),
          ...(next.result ? { result: next.result } : {}),
        }),
      ),
    });
  };
  // The server counts up to 10,000 matches; beyond, its total is a lower bound and the list says "more than".
  const lowerBound = context.totalIsLowerBound;

  return (
    <>
      <ListScreen
        screen="AuditAccesses"
        title={<FormattedMessage id="screen.AuditAccesses" />}
        actions={
          <ExportPanel
            machine="auditExport"
            prefix="audit"
            filter={apiFilterOf(applied)}
            expected={state === 'ready' && !lowerBound ? context.totalItems : null}
          />
        }
        search={
          <>
            <PresetButtons
              legendId="audit.presets"
              testId="audit-presets"
              presets={AUDIT_PRESETS}
              messagePrefix="audit.preset."
              applied={applied.preset}
              timeZone={tenantZone}
              onPick={(preset) => apply({ preset })}
            />
            <div className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
              <div className="flex flex-col gap-1.5">
                <label htmlFor="audit-facility" className="text-sm font-medium text-slate-800">
                  <FormattedMessage id="audit.filter.facility" />
                </label>
                <select
                  id="audit-facility"
                  data-testid="audit-facility"
                  className="h-11 rounded-lg border border-slate-300 bg-white px-3"
                  value={applied.facility_id ?? ''}
                  onChange={(event) => apply({ facility_id: event.target.value || undefined })}
                >
                  <option value="">
                    {intl.formatMessage({
                      id: mine ? 'audit.filter.myFacilities' : 'audit.filter.allFacilities',
                    })}
                  </option>
                  {facilities.map((facility) => (
                    <option key={facility.facility_id} value={facility.facility_id}>
                      {facility.alias}
                    </option>
                  ))}
                </select>
              </div>
              <div className="flex flex-col gap-1.5">
                <label htmlFor="audit-result" className="text-sm font-medium text-slate-800">
                  <FormattedMessage id="audit.filter.result" />
                </label>
                <select
                  id="audit-result"
                  data-testid="audit-result-filter"
                  className="h-11 rounded-lg border border-slate-300 bg-white px-3"
                  value={applied.result ?? ''}
                  onChange={(event) =>
                    apply({ result: (event.target.value || undefined) as AuditListFilter['result'] })
                  }
                >
                  <option value="">{intl.formatMessage({ id: 'audit.filter.anyResult' })}</option>
                  <option value="granted">{intl.formatMessage({ id: 'audit.result.granted' })}</option>
                  <option value="denied">{intl.formatMessage({ id: 'audit.result.denied' })}</option>
                </select>
              </div>
              <Button variant="secondary" onClick={() => apply({})} data-testid="audit-refresh">
                <FormattedMessage id="audit.refresh" />
              </Button>
            </div>
          </>
        }
        state={state}
        context={context}
        list={list}
        loadingLabel={intl.formatMessage({ id: 'audit.loading' })}
        failedId="audit.listFailed"
        retryId="audit.retry"
        emptyId="audit.empty"
        emptyTestId="audit-empty"
        pagerLabel={intl.formatMessage({ id: 'audit.pages' })}
        summaryTestId="audit-summary"
      >
        {lowerBound && (
          <p className="mb-2 text-sm text-slate-700" data-testid="audit-lower-bound">
            <FormattedMessage
              id="audit.atLeast"
              values={{ total: <FormattedNumber value={context.totalItems} /> }}
            />
          </p>
        )}
        <ul
          className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
          data-testid="audit-accesses"
        >
          {accesses.map((access) => (
            <li
              key={access.access_id}
              className="flex flex-wrap items-center justify-between gap-2 p-3"
              data-testid="audit-row"
              data-access-id={access.access_id}
              data-facility-id={access.facility.facility_id}
              data-user-id={access.user_id ?? ''}
              data-reason={access.reason}
            >
              <div className="min-w-0">
                <p className="font-medium">
                  <Who access={access} />
                </p>
                <p className="text-sm text-slate-700">
                  {dateTimeIn(access.created_at, access.facility.timezone ?? tenantZone)} ·{' '}
                  {access.facility.alias}
                </p>
                <p className="text-sm text-slate-700">
                  {intl.formatMessage({
                    id: `audit.reason.${access.reason}`,
                    defaultMessage: access.reason,
                  })}
                  {access.enforcement_source_url && (
                    <>
                      {' · '}
                      <EnforcementLink url={access.enforcement_source_url} />
                    </>
                  )}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <ResultBadge access={access} />
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setSelected(access)}
                  data-testid="audit-open"
                  aria-label={intl.formatMessage(
                    { id: 'audit.detail.open' },
                    { when: dateTimeIn(access.created_at, access.facility.timezone ?? tenantZone) },
                  )}
                >
                  <FormattedMessage id="audit.detail" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </ListScreen>

      <Dialog open={selected !== null} onOpenChange={(open) => (open ? undefined : setSelected(null))}>
        {selected && (
          <DialogContent
            heading={<FormattedMessage id="audit.detail.title" />}
            description={
              <>
                {dateTimeIn(selected.created_at, selected.facility.timezone ?? tenantZone)} ·{' '}
                {selected.facility.alias}
              </>
            }
            // The whole dialog scrolls on a small phone (its Close button inside keeps it reachable by keyboard).
            className="max-h-[90vh] max-w-lg overflow-y-auto"
            data-testid="audit-detail"
          >
            <AccessDetail access={selected} tenantZone={tenantZone} />
            <DialogClose asChild>
              <Button variant="secondary" data-testid="audit-detail-close">
                <FormattedMessage id="audit.detail.close" />
              </Button>
            </DialogClose>
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}
