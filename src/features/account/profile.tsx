import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { AccountProfile } from '../../../contract/api/accounts';
import { formatDate, formatDateTime, fromApiDate } from '../../../contract/domain/dates';
import type { accountProfileMachine } from '../../../machines/account-profile.machine';
import { hasRole } from '../../auth/access';
import { LocaleSelect } from '../../components/locale-select';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { pathFor } from '../../domain/screens';
import { useRuntime, useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';

const m = defineMessages({
  name: { id: 'profile.field.name' },
  idNumber: { id: 'profile.field.idNumber' },
  document: { id: 'profile.field.document' },
  nationality: { id: 'profile.field.nationality' },
  birthDate: { id: 'profile.field.birthDate' },
  expiryDate: { id: 'profile.field.expiryDate' },
  email: { id: 'profile.field.email' },
  acsId: { id: 'profile.field.acsId' },
  enrolledOn: { id: 'profile.field.enrolledOn' },
  username: { id: 'profile.field.username' },
  exportData: { id: 'profile.data.button' },
  preparing: { id: 'profile.data.preparing' },
});

type View = 'loading' | 'failed' | 'ready';
type ProfileActor = ActorRefFrom<typeof accountProfileMachine>;

/** UserProfile (spec §2 profile; get_users_me and enrolled): personal data, language, data, reset, deletion. */
export function UserProfile() {
  const intl = useIntl();
  const runtime = useRuntime();
  const logic = useScreenMachine('accountProfile');
  const actor = useActorRef(logic);
  const view = useSelector(
    actor,
    (s): View => (s.matches('ready') ? 'ready' : s.hasTag('error') ? 'failed' : 'loading'),
  );
  const profile = useSelector(actor, (s) => s.context.profile);
  const session = useSelector(runtime.session, (s) => s.context.session);
  const roles = session ?? { roles: [] };

  return (
    <section data-screen="UserProfile" className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.UserProfile" />
      </h1>
      {view === 'loading' && <PersonalDataLoading label={intl.formatMessage({ id: 'profile.loading' })} />}
      {view === 'failed' && (
        <Alert message={intl.formatMessage({ id: 'profile.failed' })}>
          <div>
            <Button variant="secondary" onClick={() => actor.send({ type: 'profile.retry' })}>
              <FormattedMessage id="profile.retry" />
            </Button>
          </div>
        </Alert>
      )}
      {view === 'ready' && profile && <PersonalData profile={profile} />}
      <LanguageChoice />
      {view !== 'failed' && hasRole(roles, 'get_all_data_me') && (
        <MyData actor={actor} loading={view === 'loading'} />
      )}
      {hasRole(roles, 'show_reset_credentials_button_me') && (
        <Section titleId="profile.reset.title">
          <p className="text-slate-700">
            <FormattedMessage id="profile.reset.lead" />
          </p>
          <Link
            href={pathFor('ResetCredentials') ?? '/reset-credentials'}
            className={buttonVariants({ variant: 'secondary', className: 'mt-4 w-full sm:w-auto' })}
            data-testid="profile-reset-credentials"
          >
            <FormattedMessage id="profile.reset.button" />
          </Link>
        </Section>
      )}
      {hasRole(roles, 'delete_accounts_me') && (
        <Section titleId="profile.delete.title">
          <p className="text-slate-700">
            <FormattedMessage id="profile.delete.lead" />
          </p>
          <Link
            href={pathFor('DeleteAccount') ?? '/delete-account'}
            className={buttonVariants({ variant: 'danger', className: 'mt-4 w-full sm:w-auto' })}
            data-testid="profile-delete-account"
          >
            <FormattedMessage id="profile.delete.button" />
          </Link>
        </Section>
      )}
    </section>
  );
}

function Section({ titleId, children }: { titleId: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        <FormattedMessage id={titleId} />
      </h2>
      <div className="mt-3">{children}</div>
    </Card>
  );
}

// An enrolled person's rows (UserProfile is theirs): what PersonalData shows once the profile is here.
const ENROLLED_ROWS = [
  m.name,
  m.idNumber,
  m.document,
  m.nationality,
  m.birthDate,
  m.expiryDate,
  m.email,
  m.acsId,
  m.enrolledOn,
];

/**
 * The personal data's card while the profile loads: its title and its labels, a bar of one line in place of each
 * value, the spinner over them, so the cards below keep their place when the values come.
 */
function PersonalDataLoading({ label }: { label: string }) {
  return (
    <Section titleId="profile.personal.title">
      <div className="relative">
        <div aria-hidden="true">
          <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr]">
            {ENROLLED_ROWS.map((row) => (
              <div key={row.id} className="contents">
                <dt className="text-sm font-medium text-slate-600">
                  <FormattedMessage {...row} />
                </dt>
                <dd className="h-6 w-2/3 rounded bg-slate-100" />
              </div>
            ))}
          </dl>
        </div>
        <div className="absolute inset-0 flex items-center justify-center">
          <Spinner label={label} />
        </div>
      </div>
    </Section>
  );
}

function PersonalData({ profile }: { profile: AccountProfile }) {
  const intl = useIntl();
  const user = profile.user;
  const day = (value: string | null) => {
    const date = value ? fromApiDate(value) : undefined;
    return date ? formatDate(date) : null;
  };
  const rows: [MessageDescriptor, string | null | undefined][] = user
    ? [
        [m.name, `${user.first_name} ${user.last_name}`],
        [m.idNumber, user.id_number],
        [
          m.document,
          `${user.document_number} · ${intl.formatMessage({ id: `documents.type.${user.document_type}`, defaultMessage: user.document_type })}`,
        ],
        [m.nationality, user.nationality],
        [m.birthDate, day(user.birth_date)],
        [m.expiryDate, day(user.expiry_date)],
        [m.email, user.email ?? profile.email],
        [m.acsId, user.acs_id],
        [m.enrolledOn, formatDateTime(new Date(user.onboarding_date))],
      ]
    : [
        [m.username, profile.username],
        [m.email, profile.email],
      ];
  return (
    <Section titleId="profile.personal.title">
      <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr]" data-testid="profile-personal-data">
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label.id} className="contents">
              <dt className="text-sm font-medium text-slate-600">
                <FormattedMessage {...label} />
              </dt>
              <dd className="break-words text-slate-900">{value}</dd>
            </div>
          ))}
      </dl>
    </Section>
  );
}

/** The language, saved to the account as it changes (src/app/runtime.ts saves every change made signed in). */
function LanguageChoice() {
  const intl = useIntl();
  const id = useId();
  const { settings } = useTenant();
  if (settings.locales.length < 2) return null;
  return (
    <Section titleId="profile.language.title">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        <FormattedMessage id="profile.language.label" />
      </label>
      <LocaleSelect
        id={id}
        testId="profile-language"
        className="mt-1.5 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/30 sm:w-64"
      />
      <p className="mt-2 text-sm text-slate-600">{intl.formatMessage({ id: 'profile.language.hint' })}</p>
    </Section>
  );
}

/** "Download my data"; drawn while the profile loads too (its button waits), so it does not appear late. */
function MyData({ actor, loading }: { actor: ProfileActor; loading: boolean }) {
  const exporting = useSelector(actor, (s) => s.hasTag('exporting'));
  const outcome = useSelector(actor, (s) =>
    s.matches({ ready: 'exported' }) ? 'exported' : s.matches({ ready: 'exportFailed' }) ? 'failed' : null,
  );
  return (
    <Section titleId="profile.data.title">
      <p className="text-slate-700">
        <FormattedMessage id="profile.data.lead" />
      </p>
      <Button
        className="mt-4 w-full sm:w-auto"
        disabled={exporting || loading}
        aria-busy={exporting}
        data-testid="profile-download-data"
        onClick={() => actor.send({ type: 'data.export' })}
      >
        <FormattedMessage {...(exporting ? m.preparing : m.exportData)} />
      </Button>
      <p className="mt-2 text-sm" aria-live="polite" data-testid="profile-data-status">
        {outcome === 'exported' && <FormattedMessage id="profile.data.saved" />}
        {outcome === 'failed' && (
          <span className="text-red-700">
            <FormattedMessage id="profile.data.failed" />
          </span>
        )}
      </p>
    </Section>
  );
}
