import * as Tabs from '@radix-ui/react-tabs';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import {
  type CredentialChange,
  credentialChangeLogic,
  evidenceLogic,
  type UserWithCredentials,
  userDetailLogic,
} from '../../actors/users';
import { EVIDENCE_KINDS, type EvidenceKind, type UserDetail } from '../../api/contract/users';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { formatDate } from '../../domain/dates';
import { useRuntime } from '../../runtime/context';

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
  const runtime = useRuntime();
  const [logic] = useState(() => userDetailLogic(runtime));
  const actor = useActorRef(logic, { input: { id } });
  const status = useSelector(actor, (s) => s.status);
  const data = useSelector(actor, (s) => s.output as UserWithCredentials | undefined);
  return (
    <section data-screen="PortalUserDetail" className="mx-auto max-w-4xl">
      <Link href="/users" className="text-sm text-brand-strong underline underline-offset-2">
        <FormattedMessage id="userDetail.back" />
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">
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
                <div key={field}>
                  <dt className="text-sm text-slate-600">
                    <FormattedMessage id={`userDetail.field.${field}`} />
                  </dt>
                  <dd className="break-words font-medium">{shownValue(data.user, field, intl)}</dd>
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
          </Tabs.Content>
          <Tabs.Content value="credentials" className="pt-4">
            <Credentials id={id} data={data} reload={reload} />
          </Tabs.Content>
          {EVIDENCE_KINDS.map((kind) => (
            <Tabs.Content key={kind} value={kind} className="pt-4">
              {data.user.evidences.includes(kind) ? (
                <Evidence id={id} kind={kind} />
              ) : (
                <p data-testid={`user-evidence-${kind}-none`}>
                  <FormattedMessage id="userDetail.noEvidence" />
                </p>
              )}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </section>
  );
}

function shownValue(
  user: UserDetail,
  field: (typeof PERSONAL_FIELDS)[number],
  intl: ReturnType<typeof useIntl>,
) {
  const value = user[field];
  if (value === null || value === '') return '—';
  if (field === 'onboarding_date' || field === 'created_at') return formatDate(new Date(value));
  if (field === 'onboarding_state') return intl.formatMessage({ id: `users.onboarding.${value}` });
  if (field === 'document_type')
    return intl.formatMessage({ id: `documents.type.${value}`, defaultMessage: value });
  if (field === 'register_mode') return intl.formatMessage({ id: `userDetail.mode.${value}` });
  return value;
}

/** Loaded only when its tab opens (Radix mounts the content of the open tab only). */
function Evidence({ id, kind }: { id: string; kind: EvidenceKind }) {
  const intl = useIntl();
  const runtime = useRuntime();
  const [logic] = useState(() => evidenceLogic(runtime));
  const actor = useActorRef(logic, { input: { id, kind } });
  const url = useSelector(actor, (s) => s.output);
  const status = useSelector(actor, (s) => s.status);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (status === 'error')
    return (
      <p>
        <FormattedMessage id="userDetail.evidenceFailed" />
      </p>
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
  const [change, setChange] = useState<CredentialChange | null>(null);
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
          onClick={() => setChange({ kind: 'user', active: !data.activated })}
        >
          <FormattedMessage id={data.activated ? 'userDetail.deactivate' : 'userDetail.activate'} />
        </Button>
      </Card>
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
                  onClick={() => setChange({ kind: 'credential', sid: credential.sid, state: 'revoked' })}
                >
                  <FormattedMessage id="userDetail.revoke" />
                </Button>
              )}
              <Button
                size="sm"
                variant="secondary"
                disabled={change !== null}
                onClick={() => setChange({ kind: 'credential', sid: credential.sid, state: 'active' })}
              >
                <FormattedMessage
                  id={credential.state === 'active' ? 'userDetail.extend' : 'userDetail.reactivate'}
                />
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {change && <ChangeRunner id={id} change={change} onDone={reload} onFailed={() => setChange(null)} />}
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
  const runtime = useRuntime();
  const [logic] = useState(() => credentialChangeLogic(runtime));
  const actor = useActorRef(logic, { input: { id, change } });
  const status = useSelector(actor, (s) => s.status);
  useEffect(() => {
    if (status === 'done') onDone();
    if (status === 'error') onFailed();
  }, [status, onDone, onFailed]);
  return <Spinner label={intl.formatMessage({ id: 'userDetail.saving' })} />;
}
