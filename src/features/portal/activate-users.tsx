import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { nationalIdProblem } from '../../../contract/domain/dni';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { useRuntime, useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';

const m = defineMessages({
  lead: { id: 'activateUsers.lead' },
  region: { id: 'activateUsers.region' },
  regionHint: { id: 'activateUsers.regionHint' },
  idNumber: { id: 'activateUsers.idNumber' },
  idNumberHint: { id: 'activateUsers.idNumberHint' },
  submit: { id: 'activateUsers.submit' },
  working: { id: 'activateUsers.working' },
  noUsersFound: { id: 'activateUsers.noUsersFound' },
  noFacility: { id: 'activateUsers.noFacility' },
  unknown: { id: 'activateUsers.failed' },
});

/** A region's name (spec §3 legal domains: regional codes such as es-an, es-ct); the code when it has none. */
function regionName(intl: ReturnType<typeof useIntl>, code: string) {
  return intl.formatMessage({ id: `regions.${code}`, defaultMessage: code });
}

/**
 * ActivateUsers (spec §2 activate-users: "activate users of another region"; §8 Activation: no users found): the region
 * the users registered in (a legal domain of the tenant) and, optionally, one person's DNI/NIE.
 */
export function ActivateUsers() {
  const intl = useIntl();
  const { tenant, settings } = useTenant();
  const logic = useScreenMachine('activateUsers');
  const actor = useActorRef(logic);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const result = useSelector(actor, (s) => (s.matches('activated') ? s.context.result : null));
  const failure = useSelector(actor, (s) =>
    s.matches({ failed: 'noUsersFound' })
      ? 'noUsersFound'
      : s.matches({ failed: 'noFacility' })
        ? 'noFacility'
        : s.matches({ failed: 'unknown' })
          ? 'unknown'
          : null,
  );
  const regions = settings.watchlistDomains.length > 0 ? settings.watchlistDomains : [settings.domain];
  // What was typed outlives a sign-out (a 401 on sending): signed in again, the form is as it was left.
  const drafts = useScreenMachine('formDraft');
  const userId = useSelector(useRuntime().session, (s) => s.context.session?.userId ?? 'anonymous');
  const [draft] = useState(() => drafts.load('activateUsers', tenant, userId));
  const [region, setRegion] = useState(
    draft?.region && regions.includes(draft.region) ? draft.region : (regions[0] ?? ''),
  );
  const [idNumber, setIdNumber] = useState(draft?.idNumber ?? '');
  const activated = result !== null;
  useEffect(() => {
    if (activated) drafts.clear('activateUsers', tenant, userId);
    else drafts.save('activateUsers', tenant, userId, { region, idNumber });
  }, [drafts, tenant, userId, region, idNumber, activated]);
  const [idError, setIdError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = idNumber.replace(/[\s-]/g, '').toUpperCase();
    const problem = id === '' ? null : nationalIdProblem(id);
    setIdError(problem ? intl.formatMessage({ id: `validation.nie.${problem}` }) : undefined);
    if (problem) return;
    actor.send({ type: 'activation.submitted', request: { region, ...(id ? { id_number: id } : {}) } });
  };

  return (
    <section data-screen="ActivateUsers" className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.ActivateUsers" />
      </h1>
      <Card>
        <p className="text-slate-700">
          <FormattedMessage {...m.lead} />
        </p>
        <form
          onSubmit={submit}
          noValidate
          className="mt-5 grid gap-4 sm:grid-cols-2"
          data-testid="activate-form"
        >
          <div className="flex flex-col gap-1.5">
            <label htmlFor="activate-region" className="text-sm font-medium text-slate-800">
              <FormattedMessage {...m.region} />
            </label>
            <select
              id="activate-region"
              className="h-11 rounded-lg border border-slate-300 bg-white px-3"
              value={region}
              aria-describedby="activate-region-hint"
              data-testid="activate-region"
              onChange={(event) => setRegion(event.target.value)}
            >
              {regions.map((code) => (
                <option key={code} value={code}>
                  {regionName(intl, code)}
                </option>
              ))}
            </select>
            <p id="activate-region-hint" className="text-sm text-slate-600">
              <FormattedMessage {...m.regionHint} />
            </p>
          </div>
          <Field
            label={intl.formatMessage(m.idNumber)}
            hint={intl.formatMessage(m.idNumberHint)}
            error={idError}
            value={idNumber}
            maxLength={20}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            data-testid="activate-id-number"
            onChange={(event) => setIdNumber(event.target.value)}
          />
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy} data-testid="activate-submit">
              <FormattedMessage {...(busy ? m.working : m.submit)} />
            </Button>
          </div>
        </form>
      </Card>
      <div aria-live="polite">
        {result && (
          <p
            className="rounded-xl border border-emerald-300 bg-emerald-50 p-4 font-medium text-emerald-900"
            data-testid="activate-result"
            data-users={result.users}
          >
            <FormattedMessage
              id="activateUsers.done"
              values={{
                users: result.users,
                region: regionName(intl, result.region),
                facility: result.alias,
              }}
            />
          </p>
        )}
        {failure && (
          <Alert
            tone="warning"
            message={intl.formatMessage(m[failure])}
            data-testid="activate-error"
            data-error={failure}
          />
        )}
      </div>
    </section>
  );
}
