import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { Markdown } from '../../components/markdown';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { CancelEnrolment, EnrolmentFrame, ScreenTitle } from './enrolment-frame';

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
        const busy = snapshot.hasTag('busy');
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
                <Alert message={intl.formatMessage({ id: 'privacy.termsUnavailable' })} />
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
            <Button type="submit" loading={busy} disabled={terms === null} data-testid="privacy-accept">
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
