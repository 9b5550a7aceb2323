import { useActorRef, useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AdminAction } from '../../../machines/administration.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { errorText } from '../../i18n/error-text';
import { useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';

const ACTIONS: readonly AdminAction[] = ['activateAll', 'deactivateAll', 'deleteUsers', 'deleteAllData'];

/** Administration: activate or deactivate all credentials, delete all users or all their data (admins). */
export function Administration() {
  const intl = useIntl();
  const { tenant } = useTenant();
  const logic = useScreenMachine('administration');
  const actor = useActorRef(logic, { input: { tenant } });
  const snapshot = useSelector(actor, (s) => s);
  const { action, typed, result, problem } = snapshot.context;
  const confirming = snapshot.matches('confirming');
  const working = snapshot.matches('working');

  return (
    <section data-screen="Administration" className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.Administration" />
      </h1>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2">
        {ACTIONS.map((each) => (
          <li key={each}>
            <Card className="flex h-full flex-col justify-between gap-3">
              <div>
                <h2 className="font-semibold">
                  <FormattedMessage id={`admin.${each}.title`} />
                </h2>
                <p className="mt-1 text-sm text-slate-700">
                  <FormattedMessage id={`admin.${each}.body`} />
                </p>
              </div>
              <Button
                variant={each.startsWith('delete') ? 'danger' : 'secondary'}
                disabled={working}
                data-testid={`admin-${each}`}
                onClick={() => actor.send({ type: 'action.chosen', action: each })}
              >
                <FormattedMessage id={`admin.${each}.title`} />
              </Button>
            </Card>
          </li>
        ))}
      </ul>
      <div className="mt-6" aria-live="polite">
        {working && <Spinner label={intl.formatMessage({ id: 'admin.working' })} />}
        {snapshot.matches('done') && result && action && (
          <Card data-testid="admin-result">
            <FormattedMessage
              id={`admin.${action}.done`}
              values={{ users: result.users, images: result.images }}
            />
          </Card>
        )}
        {snapshot.matches({ failed: 'mismatch' }) && (
          <Alert message={intl.formatMessage({ id: 'admin.mismatch' })} />
        )}
        {snapshot.matches({ failed: 'unknown' }) && (
          <Alert message={intl.formatMessage({ id: 'admin.failed' })}>
            {/* What the server said, in the person's words: its code's, else its own detail. */}
            {(problem?.code || problem?.detail) && (
              <p className="text-sm">
                {errorText(intl, problem.code, { serverText: problem.detail ?? null })}
              </p>
            )}
          </Alert>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        heading={action && <FormattedMessage id={`admin.${action}.title`} />}
        description={
          <FormattedMessage id="admin.confirm.body" values={{ tenant: <strong>{tenant}</strong> }} />
        }
        cancelLabel={<FormattedMessage id="admin.confirm.cancel" />}
        confirmLabel={<FormattedMessage id="admin.confirm.yes" />}
        onCancel={() => actor.send({ type: 'action.cancelled' })}
        onConfirm={() => actor.send({ type: 'action.confirmed' })}
        confirmDisabled={typed.trim() !== tenant}
        data-testid="admin-confirm"
        confirmTestId="admin-confirm-yes"
      >
        <Field
          label={intl.formatMessage({ id: 'admin.confirm.label' })}
          value={typed}
          autoComplete="off"
          data-testid="admin-confirm-name"
          onChange={(event) => actor.send({ type: 'confirmation.typed', value: event.target.value })}
        />
      </ConfirmDialog>
    </section>
  );
}
