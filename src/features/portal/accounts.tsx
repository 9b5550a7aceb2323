import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { IamAccount } from '../../../contract/api/accounts';
import { formatDate } from '../../../contract/domain/dates';
import { ListScreen } from '../../components/list-screen';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { PAGE_SIZES } from '../../domain/lists';
import { useScreenMachine } from '../../runtime/machines';
import { useSettledSelector } from '../../runtime/settled-selector';

const PAGE_SIZE = PAGE_SIZES.accounts;

/** PortalAccounts: the tenant's IAM accounts, searchable and paged (spec §2, §3 IAM account). */
export function PortalAccounts() {
  const intl = useIntl();
  const logic = useScreenMachine('list.accounts');
  const list = useActorRef(logic, { input: { pageSize: PAGE_SIZE } });
  const state = useSelector(list, (s) =>
    s.hasTag('busy') ? 'loading' : s.hasTag('error') ? 'failed' : 'ready',
  );
  const context = useSelector(list, (s) => s.context);
  const [filter, setFilter] = useState('');
  const accounts = context.items as IamAccount[];

  const search = (event: FormEvent) => {
    event.preventDefault();
    list.send({ type: 'filter.change', filter });
  };

  return (
    <ListScreen
      screen="PortalAccounts"
      title={<FormattedMessage id="screen.PortalAccounts" />}
      search={
        <form onSubmit={search} className="mt-4 flex items-end gap-2">
          <Field
            className="flex-1"
            label={intl.formatMessage({ id: 'accounts.search' })}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            type="search"
            autoComplete="off"
          />
          <Button type="submit">
            <FormattedMessage id="accounts.searchButton" />
          </Button>
        </form>
      }
      state={state}
      context={context}
      list={list}
      loadingLabel={intl.formatMessage({ id: 'accounts.loading' })}
      failedId="accounts.failed"
      retryId="accounts.retry"
      emptyId="accounts.empty"
      emptyTestId="accounts-empty"
      pagerLabel={intl.formatMessage({ id: 'accounts.pages' })}
      summaryTestId="accounts-summary"
    >
      <ul
        className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
        data-testid="accounts"
      >
        {accounts.map((account) => (
          <li
            key={account.id}
            className="flex flex-col gap-1 p-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <p className="font-medium">
                {[account.firstName, account.lastName].filter(Boolean).join(' ') || account.username}
              </p>
              <p className="text-sm text-slate-600">
                {account.username}
                {account.email ? ` · ${account.email}` : ''}
              </p>
            </div>
            <div className="text-sm text-slate-600 sm:text-end">
              <p data-testid={`account-status-${account.username}`}>
                <FormattedMessage
                  id={`accounts.status.${account.onboarding_status}`}
                  defaultMessage={account.onboarding_status}
                />
              </p>
              {account.onboarding_status === 'incompleted' && (
                <CompleteOnboarding
                  accountId={account.id}
                  username={account.username}
                  onDone={() => list.send({ type: 'filter.change', filter: context.filter })}
                />
              )}
              <p>
                <FormattedMessage
                  id="accounts.created"
                  values={{ date: formatDate(new Date(account.createdTimestamp)) }}
                />
              </p>
            </div>
          </li>
        ))}
      </ul>
    </ListScreen>
  );
}

/** Completes a pending onboarding (spec §4: incompleted → completed, an assistant completes it). */
function CompleteOnboarding({
  accountId,
  username,
  onDone,
}: {
  accountId: string;
  username: string;
  onDone: () => void;
}) {
  const intl = useIntl();
  const [running, setRunning] = useState(false);
  // Not completed says so beside its button; the notice that said why leaves after a while.
  const [failed, setFailed] = useState(false);
  if (running)
    return (
      <CompleteRunner
        accountId={accountId}
        onDone={onDone}
        onFailed={() => {
          setRunning(false);
          setFailed(true);
        }}
      />
    );
  return (
    <>
      <Button
        size="sm"
        className="mt-1"
        data-testid={`account-complete-${username}`}
        onClick={() => {
          setFailed(false);
          setRunning(true);
        }}
      >
        <FormattedMessage id="accounts.complete" />
      </Button>
      {failed && (
        <Alert
          className="mt-2 text-start"
          message={intl.formatMessage({ id: 'accounts.completeFailed' })}
          data-testid={`account-complete-failed-${username}`}
        />
      )}
    </>
  );
}

function CompleteRunner({
  accountId,
  onDone,
  onFailed,
}: {
  accountId: string;
  onDone: () => void;
  onFailed: () => void;
}) {
  const intl = useIntl();
  const logic = useScreenMachine('completeOnboarding');
  const actor = useActorRef(logic, { input: { accountId } });
  const status = useSettledSelector(actor, (s) => s.status);
  useEffect(() => {
    if (status === 'done') onDone();
    if (status === 'error') onFailed();
  }, [status, onDone, onFailed]);
  return <Spinner label={intl.formatMessage({ id: 'accounts.completing' })} />;
}
