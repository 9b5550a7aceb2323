import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { UserSummary } from '../../../contract/api/users';
import { nationalIdProblem } from '../../../contract/domain/dni';
import { ListScreen } from '../../components/list-screen';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { PAGE_SIZES } from '../../domain/lists';
import { useScreenMachine } from '../../runtime/machines';

const PAGE_SIZE = PAGE_SIZES.users;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec §5: the search is a valid email or a national id (DNI/NIE); anything else is not sent. */
export const isValidUserSearch = (text: string) =>
  text === '' || EMAIL.test(text) || nationalIdProblem(text.toUpperCase()) === null;

/** PortalUsers: the tenant's enrolled users, searchable by email or national id, sorted by last name, paged. */
export function PortalUsers() {
  const intl = useIntl();
  const logic = useScreenMachine('list.users');
  const list = useActorRef(logic, { input: { pageSize: PAGE_SIZE } });
  const state = useSelector(list, (s) =>
    s.hasTag('busy') ? 'loading' : s.hasTag('error') ? 'failed' : 'ready',
  );
  const context = useSelector(list, (s) => s.context);
  const [search, setSearch] = useState('');
  const [invalid, setInvalid] = useState(false);
  const users = context.items as UserSummary[];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = search.trim();
    if (!isValidUserSearch(text)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    list.send({ type: 'filter.change', filter: text });
  };

  return (
    <ListScreen
      screen="PortalUsers"
      className="max-w-5xl"
      title={<FormattedMessage id="screen.PortalUsers" />}
      search={
        <form onSubmit={submit} className="mt-4 flex items-start gap-2" noValidate>
          <Field
            className="flex-1"
            label={intl.formatMessage({ id: 'users.search' })}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            type="search"
            autoComplete="off"
            data-testid="users-search"
            {...(invalid ? { error: intl.formatMessage({ id: 'users.searchInvalid' }) } : {})}
          />
          <Button type="submit" className="mt-7">
            <FormattedMessage id="accounts.searchButton" />
          </Button>
        </form>
      }
      state={state}
      context={context}
      list={list}
      loadingLabel={intl.formatMessage({ id: 'users.loading' })}
      failedId="users.failed"
      retryId="accounts.retry"
      emptyId="users.empty"
      emptyTestId="users-empty"
      pagerLabel={intl.formatMessage({ id: 'accounts.pages' })}
      summaryTestId="users-summary"
    >
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-start text-sm" data-testid="users">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {(['name', 'email', 'idNumber', 'acsId', 'state'] as const).map((column) => (
                <th key={column} scope="col" className="px-3 py-2 text-start font-medium">
                  <FormattedMessage id={`users.column.${column}`} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {users.map((user) => (
              <tr key={user.user_id}>
                <td className="px-3 py-2">
                  <Link
                    href={`/user-detail/${user.user_id}`}
                    className="font-medium text-brand-strong underline underline-offset-2"
                  >
                    {user.last_name}, {user.first_name}
                  </Link>
                </td>
                <td className="px-3 py-2">{user.email ?? '—'}</td>
                <td className="px-3 py-2 font-mono">{user.id_number ?? '—'}</td>
                <td className="px-3 py-2 font-mono">{user.acs_id}</td>
                <td className="px-3 py-2">
                  <FormattedMessage id={user.active ? 'users.active' : 'users.inactive'} />
                  {' · '}
                  <FormattedMessage id={`users.onboarding.${user.onboarding_state}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ListScreen>
  );
}
