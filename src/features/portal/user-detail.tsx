import * as Tabs from '@radix-ui/react-tabs';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { EVIDENCE_KINDS, type EvidenceKind, FAILED_CHECKS } from '../../../contract/api/checks';
import type { FailedCheck } from '../../../contract/api/onboarding';
import type { UserDetail } from '../../../contract/api/users';
import { formatDate, fromApiDate } from '../../../contract/domain/dates';
import { isPortrayalErrorCode } from '../../../contract/domain/enrolment';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useRuntime } from '../../runtime/context';
import { type CredentialChange, type UserWithCredentials, useScreenMachine } from '../../runtime/machines';
import { useSettledSelector } from '../../runtime/settled-selector';

const PERSONAL_FIELDS = [
  'first_name',
  'last_name',
  'username',
  'email',
  'id_number',
  'nie',
  'nationality',
  'birth_date',
  'document_type',
  'document_number',
  'expiry_date',
  'expedition_country',
  'acs_id',
  'host',
  'onboarding_date',
  'created_at',
  'onboarding_state',
  'register_mode',
  'assisted_by',
  'region',
  'user_id',
  'portrayal_id',
  'onboarding_id',
] as const satisfies readonly (keyof UserDetail)[];

const SECURITY_FIELDS = [
  'life_proofing_result',
  'identity_proofing_result',
  'ocr_integrity',
  'document_validity',
  'selfie_authenticity',
] as const satisfies readonly (keyof UserDetail)[];

const TABS = ['personal', 'security', 'credentials', ...EVIDENCE_KINDS] as const;

/** PortalUserDetail (user-detail/:id): tabs personal data, security, credentials and the three evidences. */
export function PortalUserDetail() {
  const { id = '' } = useParams<{ id: string }>();
  const [version, setVersion] = useState(0);
  // The open tab outlives a reload after a change, so the person stays where they acted.
  const [tab, setTab] = useState<string>('personal');
  return (
    <Loaded
      key={`${id}-${version}`}
      id={id}
      tab={tab}
      onTab={setTab}
      reload={() => setVersion((v) => v + 1)}
    />
  );
}

function Loaded({
  id,
  tab,
  onTab,
  reload,
}: {
  id: string;
  tab: string;
  onTab: (tab: string) => void;
  reload: () => void;
}) {
  const intl = useIntl();
  const logic = useScreenMachine('userDetail');
  const actor = useActorRef(logic, { input: { id } });
  const status = useSettledSelector(actor, (s) => s.status);
  const data = useSettledSelector(actor, (s) => s.output as UserWithCredentials | undefined);
  return (
    <section data-screen="PortalUserDetail" className="mx-auto max-w-4xl">
      <Link href="/users" className="text-sm text-brand-strong underline underline-offset-2">
        <FormattedMessage id="userDetail.back" />
      </Link>
      <h1 className="mt-2 text-2xl font-semibold [overflow-wrap:anywhere]">
        {data ? (
          `${data.user.first_name} ${data.user.last_name}`
        ) : (
          <FormattedMessage id="screen.PortalUserDetail" />
        )}
      </h1>
      {status === 'active' && <Spinner label={intl.formatMessage({ id: 'userDetail.loading' })} />}
      {status === 'error' && (
        <Card className="mt-4">
          <p>
            <FormattedMessage id="userDetail.failed" />
          </p>
          <Button className="mt-4" variant="secondary" onClick={reload}>
            <FormattedMessage id="accounts.retry" />
          </Button>
        </Card>
      )}
      {data && (
        <Tabs.Root value={tab} onValueChange={onTab} className="mt-4">
          <Tabs.List
            className="flex flex-wrap gap-1 border-b border-slate-200"
            aria-label={intl.formatMessage({ id: 'userDetail.tabs' })}
          >
            {TABS.map((tab) => (
              <Tabs.Trigger
                key={tab}
                value={tab}
                data-testid={`user-tab-${tab}`}
                className="-mb-px border-b-2 border-transparent px-4 py-2 font-medium text-slate-700 data-[state=active]:border-brand data-[state=active]:text-slate-900"
              >
                <FormattedMessage id={`userDetail.tab.${tab}`} />
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="personal" className="pt-4">
            <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2" data-testid="user-personal">
              {PERSONAL_FIELDS.map((field) => (
                <div key={field} data-testid={`user-field-${field}`}>
                  <dt className="text-sm text-slate-600">
                    <FormattedMessage id={`userDetail.field.${field}`} />
                  </dt>
                  <dd className="font-medium [overflow-wrap:anywhere]">
                    {shownValue(data.user, field, intl)}
                  </dd>
                </div>
              ))}
            </dl>
          </Tabs.Content>
          <Tabs.Content value="security" className="pt-4">
            <dl className="grid gap-3 sm:grid-cols-2" data-testid="user-security">
              {SECURITY_FIELDS.map((field) => (
                <div key={field} className="rounded-lg border border-slate-200 bg-white p-3">
                  <dt className="text-sm text-slate-600">
                    <FormattedMessage id={`userDetail.field.${field}`} />
                  </dt>
                  <dd className="font-medium" data-result={data.user[field]}>
                    <FormattedMessage id={`userDetail.result.${data.user[field]}`} />
                  </dd>
                </div>
              ))}
            </dl>
            <Refusals refusals={data.user.refusals} />
          </Tabs.Content>
          <Tabs.Content value="credentials" className="pt-4">
            <Credentials id={id} data={data} reload={reload} />
          </Tabs.Content>
          {EVIDENCE_KINDS.map((kind) => {
            const deletedAt = retentionDeletionOf(data.user, kind);
            return (
              <Tabs.Content key={kind} value={kind} className="pt-4">
                {data.user.evidences.includes(kind) ? (
                  <EvidenceTab id={id} kind={kind} />
                ) : deletedAt ? (
                  <p data-testid={`user-evidence-${kind}-deleted`}>
                    <FormattedMessage
                      id="userDetail.evidenceDeleted"
                      values={{ date: formatDate(new Date(deletedAt)) }}
                    />
                  </p>
                ) : (
                  <p data-testid={`user-evidence-${kind}-none`}>
                    <FormattedMessage id="userDetail.noEvidence" />
                  </p>
                )}
              </Tabs.Content>
            );
          })}
        </Tabs.Root>
      )}
    </section>
  );
}

/** When the retention rule deleted the user's image of this kind, if it did. */
const retentionDeletionOf = (user: UserDetail, kind: EvidenceKind) =>
  user.deleted_evidences?.find((d) => d.kind === kind && d.deleted_by === 'retention')?.deleted_at;

function shownValue(
  user: UserDetail,
  field: (typeof PERSONAL_FIELDS)[number],
  intl: ReturnType<typeof useIntl>,
) {
  const value = user[field];
  if (value === null || value === '') return '—';
  if (field === 'onboarding_date' || field === 'created_at') return formatDate(new Date(value));
  // Spec §9: API dates (YYYY-MM-DD) are shown DD/MM/YYYY.
  if (field === 'birth_date' || field === 'expiry_date') {
    const day = fromApiDate(value);
    return day ? formatDate(day) : value;
  }
  if (field === 'onboarding_state') return intl.formatMessage({ id: `users.onboarding.${value}` });
  if (field === 'document_type')
    return intl.formatMessage({ id: `documents.type.${value}`, defaultMessage: value });
  if (field === 'register_mode') return intl.formatMessage({ id: `userDetail.mode.${value}` });
  if (field === 'region') return intl.formatMessage({ id: `regions.${value}`, defaultMessage: value });
  return value;
}

/** The words of a failed check: each pair the engine names has its own; another engine's, a general one. */
function checkMessageId(check: FailedCheck): string {
  const known = FAILED_CHECKS.some((pair) => pair.field === check.field && pair.rule === check.rule);
  return known ? `userDetail.refusal.check.${check.field}.${check.rule}` : 'userDetail.refusal.check.other';
}

/**
 * Why the person's pictures were refused before they were accepted, in words: the refusal (spec §8 code) and, for
 * a document check, which field failed which rule (a check digit, the DNI/NIE letter, a document without a face).
 */
function Refusals({ refusals }: { refusals: UserDetail['refusals'] }) {
  return (
    <section className="mt-6" data-testid="user-refusals">
      <h2 className="text-lg font-semibold">
        <FormattedMessage id="userDetail.refusals.title" />
      </h2>
      {refusals.length === 0 ? (
        <p className="mt-2 text-slate-700">
          <FormattedMessage id="userDetail.refusals.none" />
        </p>
      ) : (
        <ol className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {refusals.map((refusal) => (
            <li
              key={refusal.at}
              className="p-3"
              data-testid="user-refusal"
              data-error-code={refusal.error_code}
              data-check={refusal.check ? `${refusal.check.field}.${refusal.check.rule}` : undefined}
            >
              <p className="text-sm text-slate-600">{formatDate(new Date(refusal.at))}</p>
              <p className="font-medium">
                <FormattedMessage
                  id={`userDetail.refusal.code.${isPortrayalErrorCode(refusal.error_code) ? refusal.error_code : 'unknown'}`}
                />
              </p>
              {refusal.check && (
                <p className="text-slate-800">
                  <FormattedMessage id={checkMessageId(refusal.check)} />
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** An evidence and, when it could not be loaded, the way to load it again. */
function EvidenceTab({ id, kind }: { id: string; kind: EvidenceKind }) {
  const [attempt, setAttempt] = useState(0);
  return <Evidence key={attempt} id={id} kind={kind} retry={() => setAttempt((n) => n + 1)} />;
}

/** Loaded only when its tab opens (Radix mounts the content of the open tab only). */
function Evidence({ id, kind, retry }: { id: string; kind: EvidenceKind; retry: () => void }) {
  const intl = useIntl();
  const logic = useScreenMachine('userEvidence');
  const actor = useActorRef(logic, { input: { id, kind } });
  const url = useSettledSelector(actor, (s) => s.output);
  const status = useSettledSelector(actor, (s) => s.status);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (status === 'error')
    return (
      <div data-testid="user-evidence-failed">
        <p>
          <FormattedMessage id="userDetail.evidenceFailed" />
        </p>
        <Button className="mt-4" variant="secondary" onClick={retry}>
          <FormattedMessage id="accounts.retry" />
        </Button>
      </div>
    );
  if (!url) return <Spinner label={intl.formatMessage({ id: 'userDetail.loading' })} />;
  return (
    <img
      src={url}
      alt={intl.formatMessage({ id: `userDetail.evidenceAlt.${kind}` })}
      data-testid={`user-evidence-${kind}`}
      className="max-h-[28rem] max-w-full rounded-lg border border-slate-200"
    />
  );
}

function Credentials({ id, data, reload }: { id: string; data: UserWithCredentials; reload: () => void }) {
  const intl = useIntl();
  const [change, setChange] = useState<CredentialChange | null>(null);
  // A change that did not happen says so where it was asked for; the notice that said why leaves after a while.
  const [failed, setFailed] = useState(false);
  const start = (next: CredentialChange) => {
    setFailed(false);
    setChange(next);
  };
  return (
    <div data-testid="user-credentials">
      <Card className="flex flex-wrap items-center justify-between gap-3">
        <p data-testid="user-activated" data-active={data.activated}>
          <FormattedMessage id={data.activated ? 'users.active' : 'users.inactive'} />
        </p>
        <Button
          variant={data.activated ? 'secondary' : 'primary'}
          size="sm"
          disabled={change !== null}
          data-testid={data.activated ? 'user-deactivate' : 'user-activate'}
          onClick={() => start({ kind: 'user', active: !data.activated })}
        >
          <FormattedMessage id={data.activated ? 'userDetail.deactivate' : 'userDetail.activate'} />
        </Button>
      </Card>
      {failed && (
        <Alert
          className="mt-2 text-sm"
          message={intl.formatMessage({ id: 'userDetail.changeFailed' })}
          data-testid="user-change-failed"
        />
      )}
      <ul className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {data.credentials.map((credential) => (
          <li
            key={credential.sid}
            className="flex flex-wrap items-center justify-between gap-3 p-3"
            data-testid={`credential-${credential.credential_type}`}
          >
            <div>
              <p className="font-medium">
                <FormattedMessage id={`userDetail.credential.${credential.credential_type}`} />
              </p>
              <p className="text-sm text-slate-600">
                <FormattedMessage id={`userDetail.state.${credential.state}`} />
                {credential.ends_at && (
                  <>
                    {' · '}
                    <FormattedMessage
                      id="userDetail.until"
                      values={{ date: formatDate(new Date(credential.ends_at)) }}
                    />
                  </>
                )}
              </p>
            </div>
            <div className="flex gap-2">
              {credential.state === 'active' && (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={change !== null}
                  onClick={() => start({ kind: 'credential', sid: credential.sid, state: 'revoked' })}
                >
                  <FormattedMessage id="userDetail.revoke" />
                </Button>
              )}
              <Button
                size="sm"
                variant="secondary"
                disabled={change !== null}
                onClick={() => start({ kind: 'credential', sid: credential.sid, state: 'active' })}
              >
                <FormattedMessage
                  id={credential.state === 'active' ? 'userDetail.extend' : 'userDetail.reactivate'}
                />
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {change && (
        <ChangeRunner
          id={id}
          change={change}
          onDone={reload}
          onFailed={() => {
            setChange(null);
            setFailed(true);
          }}
        />
      )}
      <Locations id={id} data={data} reload={reload} />
    </div>
  );
}

function ChangeRunner({
  id,
  change,
  onDone,
  onFailed,
}: {
  id: string;
  change: CredentialChange;
  onDone: () => void;
  onFailed: () => void;
}) {
  const intl = useIntl();
  const logic = useScreenMachine('credentialChange');
  const actor = useActorRef(logic, { input: { id, change } });
  const status = useSettledSelector(actor, (s) => s.status);
  useEffect(() => {
    if (status === 'done') onDone();
    if (status === 'error') onFailed();
  }, [status, onDone, onFailed]);
  return <Spinner label={intl.formatMessage({ id: 'userDetail.saving' })} />;
}

/** The locations of the credentials (spec §3), and "add location" for holders of post_credentials_location (§6). */
function Locations({ id, data, reload }: { id: string; data: UserWithCredentials; reload: () => void }) {
  const intl = useIntl();
  const { session } = useRuntime();
  const canAdd = useSelector(
    session,
    (s) => s.context.session?.roles.includes('post_credentials_location') ?? false,
  );
  const aliasOf = (facilityId: string) =>
    data.facilities.find((f) => f.facility_id === facilityId)?.alias ?? facilityId;
  const addable = data.facilities.filter((f) => !data.locations.includes(f.facility_id));
  const [choice, setChoice] = useState(addable[0]?.facility_id ?? '');
  const [adding, setAdding] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  return (
    <Card className="mt-4" data-testid="user-locations">
      <h2 className="font-semibold">
        <FormattedMessage id="userDetail.locations" />
      </h2>
      {data.locations.length === 0 ? (
        <p className="mt-1 text-slate-700" data-testid="user-locations-none">
          <FormattedMessage id="userDetail.locations.none" />
        </p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2" data-testid="user-locations-list">
          {data.locations.map((facilityId) => (
            <li
              key={facilityId}
              className="rounded-full border border-slate-300 bg-slate-50 px-3 py-1 text-sm"
            >
              {aliasOf(facilityId)}
            </li>
          ))}
        </ul>
      )}
      {canAdd && addable.length > 0 && (
        <form
          className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            if (choice) {
              setFailed(false);
              setAdding(choice);
            }
          }}
        >
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor="user-location-choice" className="text-sm font-medium text-slate-800">
              <FormattedMessage id="userDetail.locations.choose" />
            </label>
            <select
              id="user-location-choice"
              className="h-11 rounded-lg border border-slate-300 bg-white px-3"
              value={choice}
              data-testid="user-location-choice"
              onChange={(event) => setChoice(event.target.value)}
            >
              {addable.map((f) => (
                <option key={f.facility_id} value={f.facility_id}>
                  {f.alias}
                </option>
              ))}
            </select>
          </div>
          <Button
            type="submit"
            variant="secondary"
            disabled={adding !== null}
            data-testid="user-location-add"
          >
            <FormattedMessage id="userDetail.locations.add" />
          </Button>
        </form>
      )}
      {failed && (
        <Alert className="mt-2 text-sm" message={intl.formatMessage({ id: 'userDetail.locations.failed' })} />
      )}
      {adding && (
        <LocationRunner
          id={id}
          location={adding}
          onDone={reload}
          onFailed={() => {
            setAdding(null);
            setFailed(true);
          }}
          label={intl.formatMessage({ id: 'userDetail.saving' })}
        />
      )}
    </Card>
  );
}

function LocationRunner({
  id,
  location,
  onDone,
  onFailed,
  label,
}: {
  id: string;
  location: string;
  onDone: () => void;
  onFailed: () => void;
  label: string;
}) {
  const logic = useScreenMachine('addLocation');
  const actor = useActorRef(logic, { input: { id, location } });
  const status = useSettledSelector(actor, (s) => s.status);
  useEffect(() => {
    if (status === 'done') onDone();
    if (status === 'error') onFailed();
  }, [status, onDone, onFailed]);
  return <Spinner label={label} />;
}
