import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { isAlphanumeric, normaliseNationalId } from '../../../contract/domain/dni';
import type { accountDeletionMachine, DeletionRefusal } from '../../../machines/account-deletion.machine';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { useTenant } from '../../runtime/context';
import { useFormDraft } from '../../runtime/form-draft';
import { useScreenMachine } from '../../runtime/machines';

const REFUSALS: Record<DeletionRefusal, MessageDescriptor> = defineMessages({
  visit_in_progress: { id: 'deleteAccount.refused.visit_in_progress' },
  bad_request: { id: 'deleteAccount.refused.bad_request' },
  id_mismatch: { id: 'deleteAccount.refused.id_mismatch' },
  staff_account: { id: 'deleteAccount.refused.staff_account' },
  last_admin: { id: 'deleteAccount.refused.last_admin' },
  unknown: { id: 'deleteAccount.refused.unknown' },
});
const m = defineMessages({
  submit: { id: 'deleteAccount.submit' },
  deleting: { id: 'deleteAccount.deleting' },
});

type DeletionSnapshot = SnapshotFrom<typeof accountDeletionMachine>;
type DeletionActor = ActorRefFrom<typeof accountDeletionMachine>;

/** The refusal the machine is in (its meta names the error code). */
function refusalIn(snapshot: DeletionSnapshot): DeletionRefusal | null {
  if (!snapshot.hasTag('error')) return null;
  const metas = Object.values(snapshot.getMeta()) as ({ errorCode?: DeletionRefusal } | undefined)[];
  return metas.find((meta) => meta?.errorCode)?.errorCode ?? 'unknown';
}

/**
 * DeleteAccount (spec §2 delete-account, delete_accounts_me; §8 Account cancellation): the field the tenant asks
 * for (askFieldForDelete), normalised and checked for letters and digits here, a confirmation dialog, and the refusals
 * in words (a malformed DNI/NIE that is not the stored one is the server's bad_request).
 */
export function DeleteAccount() {
  const intl = useIntl();
  const { settings } = useTenant();
  const logic = useScreenMachine('accountDeletion');
  const actor = useActorRef(logic);
  const confirming = useSelector(actor, (s) => s.matches('confirming'));
  const busy = useSelector(actor, (s) => s.hasTag('busy') || s.matches('deleted') || s.matches('signedOut'));
  const done = useSelector(actor, (s) => s.matches('signedOut'));
  const refusal = useSelector(actor, refusalIn);
  const asksIdNumber = settings.askFieldForDelete === 'id_number';
  // What was typed outlives a sign-out (a 401 on sending): signed in again, the field is as it was left.
  const drafts = useFormDraft('deleteAccount');
  const [value, setValue] = useState(() => drafts.load()?.value ?? '');
  const deleted = useSelector(actor, (s) => s.matches('deleted') || s.matches('signedOut'));
  useEffect(() => {
    if (deleted) drafts.clear();
    else drafts.save({ value });
  }, [drafts, value, deleted]);
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (asksIdNumber) {
      // Normalised as the server normalises the stored value. Only what no record can hold stays on the phone:
      // the stored id_number is the answer even when it is not a valid DNI/NIE (old data, a typo), so the
      // DNI/NIE rules are the server's to apply to a value that is not the stored one.
      const compact = normaliseNationalId(value);
      const problem = compact === '' ? 'required' : isAlphanumeric(compact) ? null : 'wrong_format';
      if (problem) {
        setError(
          intl.formatMessage({
            id: problem === 'required' ? 'common.errors.required' : `validation.nie.${problem}`,
          }),
        );
        return;
      }
      setError(undefined);
      actor.send({ type: 'field.submitted', value: compact });
    } else {
      actor.send({ type: 'field.submitted', value: '' });
    }
  };

  if (done) {
    return (
      <Card data-screen="DeleteAccount" className="mx-auto max-w-xl">
        <Spinner label={intl.formatMessage({ id: 'deleteAccount.signingOut' })} />
        <p className="mt-3 text-slate-700" role="status">
          <FormattedMessage id="deleteAccount.deleted" />
        </p>
      </Card>
    );
  }

  return (
    <section data-screen="DeleteAccount" className="mx-auto flex max-w-xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.DeleteAccount" />
      </h1>
      <Card>
        <p className="text-slate-800">
          <FormattedMessage id="deleteAccount.lead" />
        </p>
        <ul className="mt-3 list-disc space-y-1 ps-5 text-slate-700">
          <li>
            <FormattedMessage id="deleteAccount.removes.data" />
          </li>
          <li>
            <FormattedMessage id="deleteAccount.removes.images" />
          </li>
          <li>
            <FormattedMessage id="deleteAccount.removes.credentials" />
          </li>
          <li>
            <FormattedMessage id="deleteAccount.removes.session" />
          </li>
        </ul>
        {refusal && <Refusal actor={actor} refusal={refusal} />}
        <form
          onSubmit={submit}
          noValidate
          className="mt-5 flex flex-col gap-4"
          data-testid="delete-account-form"
        >
          {asksIdNumber && (
            <Field
              label={intl.formatMessage({ id: 'deleteAccount.idNumber.label' })}
              hint={intl.formatMessage({ id: 'deleteAccount.idNumber.hint' })}
              error={error}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={16}
              data-testid="delete-account-id-number"
            />
          )}
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button type="submit" variant="danger" disabled={busy} data-testid="delete-account-submit">
              <FormattedMessage {...(busy ? m.deleting : m.submit)} />
            </Button>
            <Link
              href={pathFor('UserProfile') ?? '/profile'}
              className={buttonVariants({ variant: 'secondary' })}
              data-testid="delete-account-back"
            >
              <FormattedMessage id="deleteAccount.back" />
            </Link>
          </div>
        </form>
      </Card>
      <ConfirmDeletion actor={actor} open={confirming} />
    </section>
  );
}

function Refusal({ actor, refusal }: { actor: DeletionActor; refusal: DeletionRefusal }) {
  const intl = useIntl();
  const detail = useSelector(actor, (s) => s.context.detail);
  return (
    <Alert
      className="mt-4"
      message={intl.formatMessage(REFUSALS[refusal])}
      data-testid="delete-account-refused"
      data-refusal={refusal}
    >
      {/* Spec §8: a DNI/NIE mismatch is explained in the server's own words. */}
      {refusal === 'id_mismatch' && detail && <p data-testid="delete-account-detail">{detail}</p>}
    </Alert>
  );
}

function ConfirmDeletion({ actor, open }: { actor: DeletionActor; open: boolean }) {
  return (
    <ConfirmDialog
      open={open}
      heading={<FormattedMessage id="deleteAccount.confirm.title" />}
      description={<FormattedMessage id="deleteAccount.confirm.body" />}
      cancelLabel={<FormattedMessage id="deleteAccount.confirm.cancel" />}
      confirmLabel={<FormattedMessage id="deleteAccount.confirm.yes" />}
      onCancel={() => actor.send({ type: 'deletion.cancelled' })}
      onConfirm={() => actor.send({ type: 'deletion.confirmed' })}
      data-testid="delete-account-confirm"
      confirmTestId="delete-account-confirm-yes"
    />
  );
}
