import { lazy, Suspense, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { KnowMoreLink } from '../../components/know-more-link';
import { Markdown } from '../../components/markdown';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { isEmail } from '../../domain/email';
import { useTenant } from '../../runtime/context';
import { CancelEnrolment, EnrolmentFrame, ScreenTitle } from './enrolment-frame';
import landingImage from './landing.svg';

// Only assistants of a tenant with AssistedExistingUsers search users: the picker (and the API it calls) loads then,
// so Landing itself still makes no API call and loads no API code.
const ExistingUserPicker = lazy(() =>
  import('./existing-user-picker').then((module) => ({ default: module.ExistingUserPicker })),
);

const WHO = defineMessages({
  new: { id: 'landing.existing.whoNew' },
  existing: { id: 'landing.existing.whoExisting' },
});

const LANDING = defineMessages({
  title: { id: 'landing.title' },
  description: { id: 'landing.description' },
  assistedTitle: { id: 'landing.assisted.title' },
  assistedDescription: { id: 'landing.assisted.description' },
});

/** Landing (spec §2): image, title, description and a Start button that begins enrolment. */
const CLOSED = defineMessages({
  self: { id: 'landing.selfClosed' },
  assisted: { id: 'landing.assistedClosed' },
});

export function Landing() {
  const { settings } = useTenant();
  const intl = useIntl();
  const [assistedEmail, setAssistedEmail] = useState('');
  const [tried, setTried] = useState(false);
  // AssistedExistingUsers (spec §4): the assistant may re-enrol an existing user instead of a new person.
  const [who, setWho] = useState<'new' | 'existing'>('new');
  const [existingUser, setExistingUser] = useState<string | null>(null);
  const offersExisting = (settings.registerTypes ?? []).includes('AssistedExistingUsers');
  const image = settings.customImages.landing
    ? `${settings.assetsUrl}/${settings.customImages.landing}`
    : landingImage;
  return (
    <EnrolmentFrame screen="Landing">
      {({ actor, snapshot }) => {
        // Assisted mode (spec §4): the assistant registers someone else, named by their email.
        const assisted = snapshot.context.registerMode === 'assisted';
        // Spec §3: the tenant may close self-registration (userRegisterEnabled) or the assisted entry
        // (assistantRegisterEnabled); the server refuses them too.
        const open = assisted ? settings.assistantRegisterEnabled : settings.userRegisterEnabled;
        const emailError = !isEmail(assistedEmail)
          ? intl.formatMessage({ id: assistedEmail.trim() ? 'validation.email' : 'validation.required' })
          : undefined;
        return (
          <Card className="mx-auto flex w-full max-w-xl flex-col items-center text-center">
            <img src={image} alt="" width={240} height={160} className="h-40 w-auto" />
            <h1 className="mt-6 text-2xl font-bold">
              <FormattedMessage {...(assisted ? LANDING.assistedTitle : LANDING.title)} />
            </h1>
            <p className="mt-3 text-slate-700">
              <FormattedMessage {...(assisted ? LANDING.assistedDescription : LANDING.description)} />
            </p>
            {!open && (
              <p role="status" className="mt-6 text-slate-800" data-testid="register-closed">
                <FormattedMessage {...(assisted ? CLOSED.assisted : CLOSED.self)} />
              </p>
            )}
            {open && assisted && offersExisting && (
              <fieldset className="mt-6 w-full text-left" data-testid="assisted-who">
                <legend className="text-sm font-medium text-slate-800">
                  <FormattedMessage id="landing.existing.who" />
                </legend>
                <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:gap-6">
                  {(['new', 'existing'] as const).map((choice) => (
                    <label key={choice} className="flex items-center gap-2">
                      <input
                        type="radio"
                        name="assisted-who"
                        checked={who === choice}
                        onChange={() => setWho(choice)}
                        data-testid={`assisted-who-${choice}`}
                      />
                      <FormattedMessage {...(choice === 'new' ? WHO.new : WHO.existing)} />
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            {open && assisted && offersExisting && who === 'existing' && (
              <Suspense fallback={<Spinner label="" />}>
                <ExistingUserPicker picked={existingUser} onPick={(user) => setExistingUser(user.user_id)} />
              </Suspense>
            )}
            {open && assisted && !(offersExisting && who === 'existing') && (
              <Field
                id="assisted-email"
                type="email"
                autoComplete="off"
                className="mt-6 w-full text-left"
                label={intl.formatMessage({ id: 'landing.assistedEmail' })}
                hint={intl.formatMessage({ id: 'landing.assistedEmailHint' })}
                value={assistedEmail}
                error={tried ? emailError : undefined}
                onChange={(event) => setAssistedEmail(event.target.value)}
              />
            )}
            {open && (
              <Button
                className="mt-8 w-full"
                data-testid="enrolment-start"
                disabled={
                  snapshot.hasTag('loading') ||
                  (assisted && offersExisting && who === 'existing' && existingUser === null)
                }
                onClick={() => {
                  setTried(true);
                  if (!assisted) actor.send({ type: 'onboarding.start' });
                  else if (offersExisting && who === 'existing' && existingUser)
                    actor.send({ type: 'onboarding.start', assistedUserId: existingUser });
                  else if (!emailError) actor.send({ type: 'onboarding.start', assistedEmail });
                }}
              >
                {snapshot.hasTag('loading') ? <Spinner label="" /> : null}
                <FormattedMessage id="landing.start" />
              </Button>
            )}
            <KnowMoreLink url={settings.knowMoreUrl} className="mt-4 text-brand-strong underline" />
          </Card>
        );
      }}
    </EnrolmentFrame>
  );
}

const LEADS = defineMessages({
  withDocument: { id: 'nextSteps.lead' },
  selfieOnly: { id: 'nextSteps.leadSelfieOnly' },
});

/** NextSteps (spec §2, setting showNextSteps): what the enrolment will ask for, before it starts. */
export function NextSteps() {
  return (
    <EnrolmentFrame screen="NextSteps">
      {({ actor, snapshot }) => (
        <>
          {/* Without identity proofing (OnlySelfieWithId) there is no document to photograph. */}
          <ScreenTitle
            titleId="nextSteps.title"
            leadId={(snapshot.context.identityProofing ? LEADS.withDocument : LEADS.selfieOnly).id}
          />
          <ol className="flex list-decimal flex-col gap-2 pl-6 text-slate-800">
            <li>
              <FormattedMessage id="nextSteps.terms" />
            </li>
            {snapshot.context.identityProofing && (
              <li>
                <FormattedMessage id="nextSteps.document" />
              </li>
            )}
            <li>
              <FormattedMessage id="nextSteps.selfie" />
            </li>
            <li>
              <FormattedMessage id="nextSteps.review" />
            </li>
          </ol>
          <Button onClick={() => actor.send({ type: 'steps.continue' })} data-testid="steps-continue">
            <FormattedMessage id="enrolment.continue" />
          </Button>
          <CancelEnrolment actor={actor} />
        </>
      )}
    </EnrolmentFrame>
  );
}

/** IdentityProofingStep (spec §2, setting onboardingSteps): why the document is checked. */
export function IdentityProofingStep() {
  return (
    <EnrolmentFrame screen="IdentityProofingStep">
      {({ actor }) => (
        <>
          <ScreenTitle titleId="identityProofing.title" leadId="identityProofing.lead" />
          <Button onClick={() => actor.send({ type: 'steps.continue' })} data-testid="steps-continue">
            <FormattedMessage id="enrolment.continue" />
          </Button>
          <CancelEnrolment actor={actor} />
        </>
      )}
    </EnrolmentFrame>
  );
}

/** PrivacyOnboarding (spec §2, §5): accept the legal terms; assisted mode also confirms legal legitimacy. */
export function PrivacyOnboarding() {
  const intl = useIntl();
  const [accepted, setAccepted] = useState(false);
  const [legitimacy, setLegitimacy] = useState(false);
  const [tried, setTried] = useState(false);
  return (
    <EnrolmentFrame screen="PrivacyOnboarding">
      {({ actor, snapshot }) => {
        const assisted = snapshot.context.registerMode === 'assisted';
        const complete = accepted && (!assisted || legitimacy);
        const busy = snapshot.hasTag('loading');
        // The machine fetches the terms (legalTerms.loadingTerms) in the person's language.
        const terms = snapshot.matches({ onboarding: { legalTerms: 'termsShown' } })
          ? snapshot.context.terms
          : null;
        const termsFailed = snapshot.matches({ onboarding: { legalTerms: 'termsUnavailable' } });
        return (
          <form
            className="flex flex-col gap-6"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setTried(true);
              if (complete) {
                actor.send({
                  type: 'legalTerms.accept',
                  termsAccepted: accepted,
                  legitimacyConfirmed: legitimacy,
                });
              }
            }}
          >
            <ScreenTitle titleId="privacy.title" leadId="privacy.lead" />
            <section
              className="max-h-80 overflow-y-auto rounded-lg border border-slate-200 bg-white p-4"
              data-testid="terms"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the terms scroll; keyboard users need to reach them.
              tabIndex={0}
              aria-label={intl.formatMessage({ id: 'privacy.termsLabel' })}
            >
              {terms !== null ? (
                <Markdown source={terms} />
              ) : termsFailed ? (
                <p role="alert">
                  <FormattedMessage id="privacy.termsUnavailable" />
                </p>
              ) : (
                <Spinner label={intl.formatMessage({ id: 'common.loading' })} />
              )}
            </section>
            <Check
              id="accept-terms"
              checked={accepted}
              onChange={setAccepted}
              labelId="privacy.accept"
              error={tried && !accepted ? intl.formatMessage({ id: 'privacy.acceptRequired' }) : undefined}
            />
            {assisted && (
              <Check
                id="confirm-legitimacy"
                checked={legitimacy}
                onChange={setLegitimacy}
                labelId="privacy.legitimacy"
                error={
                  tried && !legitimacy ? intl.formatMessage({ id: 'privacy.legitimacyRequired' }) : undefined
                }
              />
            )}
            <Button type="submit" disabled={busy || terms === null} data-testid="privacy-accept">
              {busy ? <Spinner label="" /> : null}
              <FormattedMessage id="privacy.submit" />
            </Button>
            <CancelEnrolment actor={actor} />
          </form>
        );
      }}
    </EnrolmentFrame>
  );
}

export function Check({
  id,
  checked,
  onChange,
  labelId,
  error,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  labelId: string;
  error: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex items-start gap-3 text-slate-800">
        <input
          id={id}
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-brand"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>
          <FormattedMessage id={labelId} />
        </span>
      </label>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
