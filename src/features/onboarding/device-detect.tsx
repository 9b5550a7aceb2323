import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, type MessageDescriptor, useIntl } from 'react-intl';
import { Link, useSearch } from 'wouter';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { registrationErrorCode } from '../../../contract/domain/enrolment';
import { compactUserCode, isUserCode } from '../../../contract/domain/user-code';
import type { deviceHandoffMachine, HandoffStatus } from '../../../machines/device-handoff.machine';
import type { phoneHandoffMachine, RedeemProblem } from '../../../machines/phone-handoff.machine';
import { Alert } from '../../components/ui/alert';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import type { BrowserVerdict } from '../../domain/browser-check';
import { pathFor } from '../../domain/screens';
import { useRuntime, useTenant } from '../../runtime/context';
import type { EnrolmentActor } from '../../runtime/enrolment';
import { useFormDraft } from '../../runtime/form-draft';
import { useScreenMachine } from '../../runtime/machines';
import { useSessionPresence } from '../../runtime/session-presence';
import { EnrolmentFrame, useDeviceVerdict, useEnrolment } from './enrolment-frame';
import { RegistrationErrorMessage, useLeaveEnrolment } from './finish';

// DeviceDetect (spec §2, §5): enrolment happens on a phone, in a supported browser. On a computer (or a browser
// that will not do) the screen says why and, for someone signed in with an onboarding in progress, shows a
// short user code (and its QR) that carries the onboarding to the phone, then follows the phone's progress
// (machines/device-handoff.machine.ts). On the phone, a code typed in the form or opened as
// /device-detect?code=XXXXXXXX is the event code.submitted: machines/phone-handoff.machine.ts redeems it for the
// same account and hands the onboarding to the enrolment machine, which picks the step. The screen renders
// those machines and sends them events; their effects are in src/actors/device-handoff.ts.

type FailedVerdict = Extract<BrowserVerdict, { ok: false }>;
type PhoneSnapshot = SnapshotFrom<typeof phoneHandoffMachine>;

/** ABCD2345 → 'ABCD 2345': two groups of four are easier to read out and type. */
export function groupUserCode(code: string): string {
  return code.match(/.{1,4}/g)?.join(' ') ?? code;
}

/** m:ss left, never below 0:00. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Only an https:// address is offered as a download link (browsers.json is tenant data). */
export function safeDownloadUrl(url: string | undefined): string | undefined {
  return url?.startsWith('https://') ? url : undefined;
}

export interface HandoffStep {
  id: 'legalTerms' | 'document' | 'selfie' | 'result' | 'finished';
  done: boolean;
}

/**
 * The phone's progress as far as the status tells it (that the code was opened is not known). The document
 * step only when the onboarding has identity proofing: a selfie-only registration sends no document.
 */
export function handoffSteps(status: HandoffStatus | null, identityProofing: boolean): HandoffStep[] {
  const portrayals = status?.portrayals ?? [];
  const sent = (...kinds: string[]) =>
    portrayals.some((p) => p.images.some((image) => kinds.includes(image)));
  const steps: HandoffStep[] = [
    { id: 'legalTerms', done: status?.legal_terms_accepted === true },
    { id: 'document', done: sent('obverse') },
    { id: 'selfie', done: sent('selfie', 'lifeproof') },
    { id: 'result', done: portrayals.some((p) => p.result === 'ready') },
    { id: 'finished', done: status?.status === 'completed' },
  ];
  return identityProofing ? steps : steps.filter((step) => step.id !== 'document');
}

// Ids handed to the parts below, declared here so that the message extractor finds them.
const m = defineMessages({
  loading: { id: 'deviceDetect.loading' },
  desktopTitle: { id: 'deviceDetect.desktop.title' },
  browserTitle: { id: 'deviceDetect.browser.title' },
  readyTitle: { id: 'deviceDetect.ready.title' },
  phoneSignInTitle: { id: 'deviceDetect.phone.signInTitle' },
  redeemTitle: { id: 'deviceDetect.redeem.title' },
  redeemChecking: { id: 'deviceDetect.redeem.checking' },
  redeemContinuing: { id: 'deviceDetect.redeem.continuing' },
  codeGenerating: { id: 'deviceDetect.code.generating' },
});

const STEP_LABELS: Record<HandoffStep['id'], MessageDescriptor> = defineMessages({
  legalTerms: { id: 'deviceDetect.progress.legalTerms' },
  document: { id: 'deviceDetect.progress.document' },
  selfie: { id: 'deviceDetect.progress.selfie' },
  result: { id: 'deviceDetect.progress.result' },
  finished: { id: 'deviceDetect.progress.finished' },
});

const BROWSER_NAMES: Record<string, string> = {
  chrome: 'Chrome',
  chromium: 'Chromium',
  edge: 'Edge',
  firefox: 'Firefox',
  opera: 'Opera',
  safari: 'Safari',
  samsung: 'Samsung Internet',
};

export function DeviceDetect() {
  const verdict = useDeviceVerdict();
  if (!verdict.ok) return <NotThisDevice verdict={verdict} />;
  return <OnThisPhone />;
}

function Screen({ children }: { children: ReactNode }) {
  return (
    <section data-screen="DeviceDetect" className="mx-auto flex w-full max-w-xl flex-col gap-6">
      {children}
    </section>
  );
}

function Title({ message }: { message: MessageDescriptor }) {
  return (
    <h1 className="text-2xl font-bold tracking-tight">
      <FormattedMessage {...message} />
    </h1>
  );
}

function Busy({ label }: { label: MessageDescriptor }) {
  const intl = useIntl();
  return (
    <div className="flex justify-center py-6">
      <Spinner label={intl.formatMessage(label)} />
    </div>
  );
}

// ── A computer, or a browser that will not do ──────────────────────────────────────────────────────────

function NotThisDevice({ verdict }: { verdict: FailedVerdict }) {
  const presence = useSessionPresence();
  return (
    <Screen>
      <Card className="flex flex-col gap-4" data-testid="device-detect-reason" data-reason={verdict.reason}>
        <WhyNotHere verdict={verdict} />
      </Card>
      {presence === 'pending' && <Busy label={m.loading} />}
      {presence === 'signedOut' && <SignInForCode />}
      {presence === 'signedIn' && <HandoffIfOnboarding />}
    </Screen>
  );
}

function WhyNotHere({ verdict }: { verdict: FailedVerdict }) {
  const intl = useIntl();
  const { browsers } = useTenant();
  const download = safeDownloadUrl(verdict.downloadUrl);
  if (verdict.reason === 'desktop') {
    return (
      <>
        <Title message={m.desktopTitle} />
        <p className="text-slate-700">
          <FormattedMessage id="deviceDetect.desktop.lead" />
        </p>
      </>
    );
  }
  const supported = intl.formatList(
    Object.keys(browsers).map((name) => BROWSER_NAMES[name] ?? name),
    { type: 'disjunction' },
  );
  return (
    <>
      <Title message={m.browserTitle} />
      <p className="text-slate-700">
        {verdict.reason === 'ios-not-safari' && <FormattedMessage id="deviceDetect.iosNotSafari.lead" />}
        {verdict.reason === 'unsupported' && (
          <FormattedMessage id="deviceDetect.unsupported.lead" values={{ browsers: supported }} />
        )}
        {verdict.reason === 'outdated' && <FormattedMessage id="deviceDetect.outdated.lead" />}
      </p>
      {download && (
        <a
          href={download}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonVariants({ variant: 'secondary', className: 'self-start' })}
          data-testid="device-detect-download"
        >
          <FormattedMessage id="deviceDetect.browser.download" />
        </a>
      )}
    </>
  );
}

function SignInForCode() {
  const { session } = useRuntime();
  const busy = useSelector(session, (s) => s.matches('signingIn'));
  return (
    <Card className="flex flex-col gap-4">
      <p className="text-slate-700">
        <FormattedMessage id="deviceDetect.computer.signInLead" />
      </p>
      <Button
        className="self-start"
        data-testid="device-detect-login"
        disabled={busy}
        onClick={() => session.send({ type: 'session.login', returnTo: pathFor('DeviceDetect') ?? '/' })}
      >
        <FormattedMessage id="deviceDetect.signIn" />
      </Button>
    </Card>
  );
}

function HandoffIfOnboarding() {
  const { actor } = useEnrolment();
  if (!actor) return <Busy label={m.loading} />;
  return <HandoffForActor actor={actor} />;
}

function HandoffForActor({ actor }: { actor: EnrolmentActor }) {
  const onboardingId = useSelector(actor, (s) => s.context.onboardingId);
  const identityProofing = useSelector(actor, (s) => s.context.identityProofing);
  if (!onboardingId) {
    return (
      <Card>
        <p className="text-slate-700" data-testid="device-detect-no-onboarding">
          <FormattedMessage id="deviceDetect.noOnboarding" />
        </p>
      </Card>
    );
  }
  // A new onboarding (started again meanwhile) is a new handoff.
  return (
    <Handoff
      key={onboardingId}
      onboardingId={onboardingId}
      identityProofing={identityProofing}
      actor={actor}
    />
  );
}

function Handoff({
  onboardingId,
  identityProofing,
  actor,
}: {
  onboardingId: string;
  identityProofing: boolean;
  actor: EnrolmentActor;
}) {
  const logic = useScreenMachine('deviceHandoff');
  const handoff = useActorRef(logic, { input: { onboardingId } });
  const progress = useSelector(handoff, (s) =>
    s.matches({ progress: 'completed' })
      ? 'completed'
      : s.matches({ progress: 'gone' })
        ? 'gone'
        : 'following',
  );
  const status = useSelector(handoff, (s) => s.context.status);
  const statusFailed = useSelector(handoff, (s) => s.context.statusFailed);
  const leave = useLeaveEnrolment(actor);
  const intl = useIntl();

  if (progress === 'completed') {
    return (
      <Card className="flex flex-col gap-4" role="status" data-testid="device-detect-completed">
        <h2 className="text-xl font-semibold">
          <FormattedMessage id="deviceDetect.completed.title" />
        </h2>
        <p className="text-slate-700">
          <FormattedMessage id="deviceDetect.completed.lead" />
        </p>
        <Button className="self-start" onClick={leave} data-testid="device-detect-home">
          <FormattedMessage id="deviceDetect.completed.home" />
        </Button>
      </Card>
    );
  }
  if (progress === 'gone') {
    return (
      <Card className="flex flex-col gap-4" role="alert" data-testid="device-detect-gone">
        <p className="text-slate-700">
          <FormattedMessage id="deviceDetect.progress.gone" />
        </p>
        <Button className="self-start" onClick={leave}>
          <FormattedMessage id="deviceDetect.progress.restart" />
        </Button>
      </Card>
    );
  }
  const rejected = status?.outcome != null && status.outcome !== 'accepted';
  return (
    <>
      <HandoffCodeCard handoff={handoff} />
      {rejected && (
        <Card data-testid="device-detect-rejected">
          <RegistrationErrorMessage code={registrationErrorCode(status?.reason)} />
        </Card>
      )}
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">
          <FormattedMessage id="deviceDetect.progress.heading" />
        </h2>
        <ol className="flex flex-col gap-2" data-testid="device-detect-progress">
          {handoffSteps(status, identityProofing).map((step) => (
            <li key={step.id} className="flex items-center gap-3" data-step={step.id} data-done={step.done}>
              <span
                aria-hidden="true"
                className={
                  step.done
                    ? 'flex size-6 items-center justify-center rounded-full bg-brand text-sm text-brand-fg'
                    : 'size-6 rounded-full border-2 border-slate-300'
                }
              >
                {step.done ? '✓' : ''}
              </span>
              <span className={step.done ? 'text-slate-900' : 'text-slate-600'}>
                <FormattedMessage {...STEP_LABELS[step.id]} />
                <span className="sr-only">
                  {' '}
                  {step.done ? (
                    <FormattedMessage id="deviceDetect.progress.done" />
                  ) : (
                    <FormattedMessage id="deviceDetect.progress.pending" />
                  )}
                </span>
              </span>
            </li>
          ))}
        </ol>
        {/* The steps stay as last known; the person is told they may be behind, not left to guess. */}
        {statusFailed && (
          <Alert
            tone="warning"
            message={intl.formatMessage({ id: 'deviceDetect.progress.failed' })}
            data-testid="device-detect-progress-failed"
          />
        )}
        <p className="text-sm text-slate-600">
          <FormattedMessage id="deviceDetect.progress.note" />
        </p>
      </Card>
    </>
  );
}

/** Milliseconds left until the deadline, updated every second. */
function useCountdown(deadline: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [deadline]);
  return deadline === null ? 0 : deadline - now;
}

function HandoffCodeCard({ handoff }: { handoff: ActorRefFrom<typeof deviceHandoffMachine> }) {
  const intl = useIntl();
  const state = useSelector(handoff, (s) =>
    s.matches({ code: 'active' })
      ? 'active'
      : s.matches({ code: 'expired' })
        ? 'expired'
        : s.matches({ code: 'failed' })
          ? 'failed'
          : 'generating',
  );
  const code = useSelector(handoff, (s) => s.context.code);
  // expires_in counts from the answer, so the phone and this computer need not agree on the time.
  const deadline = useMemo(() => (code ? Date.now() + code.expires_in * 1000 : null), [code]);
  const left = useCountdown(state === 'active' ? deadline : null);
  return (
    <Card className="flex flex-col items-center gap-4 text-center" data-testid="device-detect-code">
      <h2 className="text-lg font-semibold">
        <FormattedMessage id="deviceDetect.handoff.heading" />
      </h2>
      {state === 'generating' && <Busy label={m.codeGenerating} />}
      {state === 'active' && code && (
        <>
          {code.qr?.startsWith('data:image/') && (
            <img
              src={code.qr}
              alt={intl.formatMessage({ id: 'deviceDetect.code.qrAlt' })}
              width={224}
              height={224}
              className="size-56 rounded-lg border border-slate-200 bg-white p-2 [image-rendering:pixelated]"
            />
          )}
          <p className="text-slate-700">
            <FormattedMessage id="deviceDetect.handoff.lead" />
          </p>
          {code.link && <p className="break-all font-mono text-sm text-slate-800">{code.link}</p>}
          <p className="font-mono text-4xl font-bold tracking-[0.2em] text-slate-900">
            <span aria-hidden="true" data-testid="device-detect-user-code">
              {groupUserCode(code.code)}
            </span>
            {/* Read out one character at a time. */}
            <span className="sr-only">
              <FormattedMessage
                id="deviceDetect.code.label"
                values={{ code: code.code.split('').join(' ') }}
              />
            </span>
          </p>
          <p role="timer" className="text-sm text-slate-600">
            <FormattedMessage id="deviceDetect.code.expiresIn" values={{ time: formatCountdown(left) }} />
          </p>
        </>
      )}
      {(state === 'expired' || state === 'failed') && (
        <>
          <Alert
            message={
              state === 'expired'
                ? intl.formatMessage({ id: 'deviceDetect.code.expired' })
                : intl.formatMessage({ id: 'deviceDetect.code.failed' })
            }
          />
          <Button onClick={() => handoff.send({ type: 'code.renew' })} data-testid="device-detect-new-code">
            <FormattedMessage id="deviceDetect.code.renew" />
          </Button>
        </>
      )}
    </Card>
  );
}

// ── A phone that will do ───────────────────────────────────────────────────────────────────────────────

const PROBLEM_MESSAGES: Record<RedeemProblem, MessageDescriptor> = defineMessages({
  'not-found': { id: 'deviceDetect.redeem.notFound' },
  expired: { id: 'deviceDetect.redeem.expired' },
  used: { id: 'deviceDetect.redeem.used' },
  failed: { id: 'deviceDetect.redeem.failed' },
});

type PhoneView = 'idle' | 'signIn' | 'redeeming' | 'refused' | 'continued';

function phoneViewOf(snapshot: PhoneSnapshot): PhoneView {
  if (snapshot.matches('signInNeeded')) return 'signIn';
  if (snapshot.hasTag('busy')) return 'redeeming';
  if (snapshot.hasTag('error')) return 'refused';
  if (snapshot.matches('continued')) return 'continued';
  return 'idle';
}

/** The refusal the phone machine is in (its meta names it). */
function redeemProblemIn(snapshot: PhoneSnapshot): RedeemProblem {
  const metas = Object.values(snapshot.getMeta()) as ({ problem?: RedeemProblem } | undefined)[];
  return metas.find((meta) => meta?.problem)?.problem ?? 'failed';
}

const CODE_DRAFT = 'deviceDetectCode';

/**
 * The code typed on the phone outlives a sign-out (a 401 on redeeming) in the tab's draft, as the staff forms keep
 * theirs: a short-lived code, not personal data, that the person finds typed after signing in again. Forgotten once
 * redeemed, and on a deliberate logout.
 */
function useCodeDraft() {
  const draft = useFormDraft(CODE_DRAFT);
  return useMemo(
    () => ({
      load: () => draft.load()?.code ?? '',
      save: (code: string) => draft.save({ code }),
      clear: draft.clear,
    }),
    [draft],
  );
}

function OnThisPhone() {
  const { actor: enrolment } = useEnrolment();
  const presence = useSessionPresence();
  const urlCode = new URLSearchParams(useSearch()).get('code');
  // The redeemed onboarding goes to the enrolment of whoever is signed in when it is redeemed.
  const enrolmentRef = useRef(enrolment);
  useEffect(() => {
    enrolmentRef.current = enrolment;
  }, [enrolment]);
  const logic = useScreenMachine('phoneHandoff', () => enrolmentRef.current);
  const phone = useActorRef(logic);
  const view = useSelector(phone, phoneViewOf);
  const code = useSelector(phone, (s) => s.context.code);

  // URLs come in as events: a code in the address (the link in the computer's QR) is a code submitted.
  useEffect(() => {
    if (urlCode !== null && presence !== 'pending') phone.send({ type: 'code.submitted', code: urlCode });
  }, [phone, urlCode, presence]);

  const submit = (typed: string) => phone.send({ type: 'code.submitted', code: typed });
  const clearCodeDraft = useCodeDraft().clear;
  useEffect(() => {
    if (view === 'continued') clearCodeDraft();
  }, [view, clearCodeDraft]);

  if (view === 'continued') {
    return (
      <EnrolmentFrame screen="DeviceDetect" deviceChecked={false}>
        {() => <Busy label={m.redeemContinuing} />}
      </EnrolmentFrame>
    );
  }
  if (view === 'signIn') return <SignInWithCode code={code ?? ''} />;
  if (view === 'idle') {
    // The code in the address becomes an event once the session is known.
    if (urlCode !== null) {
      return (
        <Screen>
          <Busy label={m.loading} />
        </Screen>
      );
    }
    return <DeviceReady onCode={submit} />;
  }
  return (
    <Screen>
      <Card className="flex flex-col gap-4" aria-busy={view === 'redeeming'}>
        <Title message={m.redeemTitle} />
        {view === 'redeeming' && <Busy label={m.redeemChecking} />}
        {view === 'refused' && <Refused phone={phone} onCode={submit} />}
      </Card>
    </Screen>
  );
}

function Refused({
  phone,
  onCode,
}: {
  phone: ActorRefFrom<typeof phoneHandoffMachine>;
  onCode: (code: string) => void;
}) {
  const problem = useSelector(phone, redeemProblemIn);
  // The code that was refused stays in the field: sent again as it is, or corrected, never typed again.
  const refused = useSelector(phone, (s) => s.context.code);
  const intl = useIntl();
  return (
    <>
      <Alert
        message={intl.formatMessage(PROBLEM_MESSAGES[problem])}
        data-testid="device-detect-redeem-error"
        data-problem={problem}
      />
      <CodeForm onCode={onCode} initial={refused ?? ''} />
    </>
  );
}

/** A code typed by hand: checked for its shape here, then sent to the phone machine as code.submitted. */
function CodeForm({ onCode, initial = '' }: { onCode: (code: string) => void; initial?: string }) {
  const intl = useIntl();
  const draft = useCodeDraft();
  const [value, setValue] = useState(() => initial || draft.load());
  const saveDraft = draft.save;
  useEffect(() => {
    saveDraft(value);
  }, [saveDraft, value]);
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = compactUserCode(value);
    if (!isUserCode(code)) {
      setError(intl.formatMessage({ id: 'deviceDetect.codeForm.invalid' }));
      return;
    }
    setError(undefined);
    onCode(code);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate data-testid="device-detect-code-form">
      <Field
        label={intl.formatMessage({ id: 'deviceDetect.codeForm.label' })}
        hint={intl.formatMessage({ id: 'deviceDetect.codeForm.hint' })}
        error={error}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        inputMode="text"
        maxLength={16}
        className="font-mono"
      />
      <Button type="submit" className="self-start">
        <FormattedMessage id="deviceDetect.codeForm.submit" />
      </Button>
    </form>
  );
}

function DeviceReady({ onCode }: { onCode: (code: string) => void }) {
  return (
    <Screen>
      <Card className="flex flex-col gap-4" data-testid="device-detect-ready">
        <Title message={m.readyTitle} />
        <p className="text-slate-700">
          <FormattedMessage id="deviceDetect.ready.lead" />
        </p>
        <Link href={pathFor('Landing') ?? '/'} className={buttonVariants({ className: 'self-start' })}>
          <FormattedMessage id="deviceDetect.ready.continue" />
        </Link>
      </Card>
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">
          <FormattedMessage id="deviceDetect.codeForm.heading" />
        </h2>
        <CodeForm onCode={onCode} />
      </Card>
    </Screen>
  );
}

/** Signed out with a code: sign in with the same account, and come back to this address with the code. */
function SignInWithCode({ code }: { code: string }) {
  const { session } = useRuntime();
  const signingIn = useSelector(session, (s) => s.matches('signingIn'));
  const returnTo = `${pathFor('DeviceDetect') ?? '/device-detect'}?code=${encodeURIComponent(code)}`;
  return (
    <Screen>
      <Card className="flex flex-col gap-4" data-testid="device-detect-sign-in">
        <Title message={m.phoneSignInTitle} />
        <p className="text-slate-700">
          <FormattedMessage id="deviceDetect.phone.sameAccount" />
        </p>
        <Button
          className="self-start"
          data-testid="device-detect-login"
          disabled={signingIn}
          onClick={() => session.send({ type: 'session.login', returnTo })}
        >
          <FormattedMessage id="deviceDetect.signIn" />
        </Button>
      </Card>
    </Screen>
  );
}
