import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { UserSummary } from '../../../contract/api/users';
import { nationalIdProblem } from '../../../contract/domain/dni';
import { isEmail } from '../../../contract/domain/email';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { useScreenMachine } from '../../runtime/machines';

const PAGE_SIZE = 5;

/**
 * AssistedExistingUsers (spec §4): the assistant finds the user to re-enrol by email or national id (GET /public/users,
 * the users list of the portal) and picks one.
 */
export function ExistingUserPicker({
  picked,
  onPick,
}: {
  picked: string | null;
  onPick: (user: UserSummary) => void;
}) {
  const intl = useIntl();
  const logic = useScreenMachine('list.users');
  const list = useActorRef(logic, { input: { pageSize: PAGE_SIZE } });
  const loading = useSelector(list, (s) => s.hasTag('busy'));
  const failed = useSelector(list, (s) => s.hasTag('error'));
  const context = useSelector(list, (s) => s.context);
  const [search, setSearch] = useState('');
  const [invalid, setInvalid] = useState(false);
  const users = context.filter === '' ? [] : (context.items as UserSummary[]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = search.trim();
    const valid = text !== '' && (isEmail(text) || nationalIdProblem(text.toUpperCase()) === null);
    setInvalid(!valid);
    if (valid) list.send({ type: 'filter.change', filter: text });
  };

  return (
    <div className="mt-6 w-full text-left" data-testid="existing-user-picker">
      <form onSubmit={submit} noValidate className="flex items-start gap-2">
        <Field
          className="flex-1"
          type="search"
          autoComplete="off"
          label={intl.formatMessage({ id: 'landing.existing.search' })}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          data-testid="existing-user-search"
          {...(invalid ? { error: intl.formatMessage({ id: 'landing.existing.searchInvalid' }) } : {})}
        />
        <Button type="submit" variant="secondary" className="mt-7" data-testid="existing-user-find">
          <FormattedMessage id="landing.existing.find" />
        </Button>
      </form>
      <div aria-live="polite" className="mt-3">
        {context.filter !== '' && loading && (
          <Spinner label={intl.formatMessage({ id: 'landing.existing.searching' })} />
        )}
        {context.filter !== '' && failed && (
          <Alert message={intl.formatMessage({ id: 'landing.existing.failed' })} />
        )}
        {context.filter !== '' && !loading && !failed && users.length === 0 && (
          <p data-testid="existing-user-none">
            <FormattedMessage id="landing.existing.none" />
          </p>
        )}
        {users.length > 0 && (
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">
              <FormattedMessage id="landing.existing.pick" />
            </legend>
            <ul className="mt-2 flex flex-col gap-2">
              {users.map((user) => (
                <li key={user.user_id}>
                  <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand">
                    <input
                      type="radio"
                      name="existing-user"
                      className="mt-1"
                      checked={picked === user.user_id}
                      onChange={() => onPick(user)}
                      data-testid={`existing-user-${user.user_id}`}
                    />
                    <span>
                      <span className="block font-medium">
                        {user.first_name} {user.last_name}
                      </span>
                      <span className="block text-sm text-slate-600">
                        {[user.id_number, user.email].filter(Boolean).join(' · ')}
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
      </div>
    </div>
  );
}
