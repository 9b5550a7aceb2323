import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import { nationalIdProblem } from '../../../contract/domain/dni';
import { isEmail } from '../../../contract/domain/email';
import type { CancellationRefusal } from '../../../machines/assistant-account-cancellation.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field } from '../../components/ui/field';
import { useScreenMachine } from '../../runtime/machines';

const m = defineMessages({
  lead: { id: 'cancelAccount.lead' },
  email: { id: 'cancelAccount.email' },
  find: { id: 'cancelAccount.find' },
  finding: { id: 'cancelAccount.finding' },
  notFound: { id: 'cancelAccount.notFound' },
  searchFailed: { id: 'cancelAccount.searchFailed' },
  found: { id: 'cancelAccount.found' },
  idNumber: { id: 'cancelAccount.idNumber' },
  idNumberHint: { id: 'cancelAccount.idNumberHint' },
  submit: { id: 'cancelAccount.submit' },
  cancelling: { id: 'cancelAccount.cancelling' },
  confirmBody: { id: 'cancelAccount.confirm.body' },
  confirmYes: { id: 'cancelAccount.confirm.yes' },
  confirmBack: { id: 'cancelAccount.confirm.back' },
});

const REFUSALS: Record<CancellationRefusal, MessageDescriptor> = defineMessages({
  visit_in_progress: { id: 'cancelAccount.refused.visit_in_progress' },
  bad_request: { id: 'cancelAccount.refused.bad_request' },
  id_mismatch: { id: 'cancelAccount.refused.id_mismatch' },
  staff_account: { id: 'cancelAccount.refused.staff_account' },
  last_admin: { id: 'cancelAccount.refused.last_admin' },
  unknown: { id: 'cancelAccount.refused.unknown' },
});

/**
 * AssistantAccountCancellation (spec §2 delete-account-assistant; §5 the correct DNI/NIE required; §8 visit in
 * progress, bad request, DNI/NIE mismatch with the server's detail): find the account by email, type the DNI/NIE the
 * person shows, confirm.
 */
export function AssistantAccountCancellation() {
  const intl = useIntl();
  const logic = useScreenMachine('assistantAccountCancellation');
  const actor = useActorRef(logic);
  const state = useSelector(actor, (s) => s);
  const { account, detail } = state.context;
  const busy = state.hasTag('busy');
  const refusal: CancellationRefusal | null = state.matches({ refused: 'visitInProgress' })
    ? 'visit_in_progress'
    : state.matches({ refused: 'badRequest' })
      ? 'bad_request'
      : state.matches({ refused: 'idMismatch' })
        ? 'id_mismatch'
        : state.matches({ refused: 'staffAccount' })
          ? 'staff_account'
          : state.matches({ refused: 'lastAdmin' })
            ? 'last_admin'
            : state.matches({ refused: 'failed' })
              ? 'unknown'
              : null;
  const showAccount =
    account !== null &&
    (state.matches('found') ||
      state.matches('confirming') ||
      state.matches('cancelling') ||
      refusal !== null);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [idNumber, setIdNumber] = useState('');
  const [idError, setIdError] = useState<string | undefined>();

  const search = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    const problem = value === '' ? 'common.errors.required' : isEmail(value) ? null : 'validation.email';
    setEmailError(problem ? intl.formatMessage({ id: problem }) : undefined);
    if (problem) return;
    setIdNumber('');
    setIdError(undefined);
    actor.send({ type: 'account.searched', email: value });
  };

  const cancel = (event: FormEvent) => {
    event.preventDefault();
    const compact = idNumber.replace(/[\s-]/g, '').toUpperCase();
    const problem = compact === '' ? 'required' : nationalIdProblem(compact);
    setIdError(
      problem
        ? intl.formatMessage({
            id: problem === 'required' ? 'common.errors.required' : `validation.nie.${problem}`,
          })
        : undefined,
    );
    if (problem) return;
    actor.send({ type: 'field.submitted', value: compact });
  };

  return (
    <section data-screen="AssistantAccountCancellation" className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.AssistantAccountCancellation" />
      </h1>
      <Card>
        <p className="text-slate-700">
          <FormattedMessage {...m.lead} />
        </p>
        <form
          onSubmit={search}
          noValidate
          className="mt-5 flex flex-col gap-4 sm:flex-row sm:items-start"
          data-testid="cancel-search"
        >
          <div className="flex-1">
            <Field
              label={intl.formatMessage(m.email)}
              type="email"
              error={emailError}
              value={email}
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              data-testid="cancel-email"
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <Button
            type="submit"
            variant="secondary"
            className="sm:mt-7"
            disabled={busy}
            data-testid="cancel-find"
          >
            <FormattedMessage {...(state.matches('finding') ? m.finding : m.find)} />
          </Button>
        </form>
      </Card>
      <div aria-live="polite" className="flex flex-col gap-4">
        {state.matches('notFound') && (
          <Alert tone="warning" message={intl.formatMessage(m.notFound)} data-testid="cancel-not-found" />
        )}
        {state.matches('searchFailed') && <Alert message={intl.formatMessage(m.searchFailed)} />}
        {state.matches('cancelled') && (
          <p
            className="rounded-xl border border-emerald-300 bg-emerald-50 p-4 font-medium text-emerald-900"
            data-testid="cancel-done"
          >
            <FormattedMessage id="cancelAccount.cancelled" values={{ name: account?.username ?? '' }} />
          </p>
        )}
        {showAccount && account && (
          <Card data-testid="cancel-account">
            <h2 className="font-semibold">
              <FormattedMessage {...m.found} />
            </h2>
            <dl className="mt-2 grid gap-x-6 gap-y-1 text-slate-800 sm:grid-cols-[auto_1fr]">
              <dt className="text-slate-600">
                <FormattedMessage id="userDetail.field.username" />
              </dt>
              <dd data-testid="cancel-account-username">{account.username}</dd>
              <dt className="text-slate-600">
                <FormattedMessage id="userDetail.field.first_name" />
              </dt>
              <dd>{[account.firstName, account.lastName].filter(Boolean).join(' ') || '—'}</dd>
              <dt className="text-slate-600">
                <FormattedMessage id="userDetail.field.email" />
              </dt>
              <dd className="break-all">{account.email ?? '—'}</dd>
            </dl>
            {refusal && (
              <Alert
                className="mt-4"
                message={intl.formatMessage(REFUSALS[refusal])}
                data-testid="cancel-refused"
                data-refusal={refusal}
              >
                {/* Spec §8: a DNI/NIE mismatch is explained in the server's own words. */}
                {refusal === 'id_mismatch' && detail && <p data-testid="cancel-detail">{detail}</p>}
              </Alert>
            )}
            <form onSubmit={cancel} noValidate className="mt-4 flex flex-col gap-4" data-testid="cancel-form">
              <Field
                label={intl.formatMessage(m.idNumber)}
                hint={intl.formatMessage(m.idNumberHint)}
                error={idError}
                value={idNumber}
                maxLength={16}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                data-testid="cancel-id-number"
                onChange={(event) => setIdNumber(event.target.value)}
              />
              <div>
                <Button type="submit" variant="danger" disabled={busy} data-testid="cancel-submit">
                  <FormattedMessage {...(state.matches('cancelling') ? m.cancelling : m.submit)} />
                </Button>
              </div>
            </form>
          </Card>
        )}
      </div>
      <ConfirmDialog
        open={state.matches('confirming')}
        heading={
          <FormattedMessage id="cancelAccount.confirm.title" values={{ name: account?.username ?? '' }} />
        }
        description={<FormattedMessage {...m.confirmBody} />}
        cancelLabel={<FormattedMessage {...m.confirmBack} />}
        confirmLabel={<FormattedMessage {...m.confirmYes} />}
        onCancel={() => actor.send({ type: 'cancellation.cancelled' })}
        onConfirm={() => actor.send({ type: 'cancellation.confirmed' })}
        data-testid="cancel-confirm"
        confirmTestId="cancel-confirm-yes"
      />
    </section>
  );
}
