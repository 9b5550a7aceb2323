import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { isEmail } from '../../../contract/domain/email';
import { registerMode } from '../../auth/access';
import { KnowMoreLink } from '../../components/know-more-link';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { loadRestOfCatalogue } from '../../i18n/catalogue';
import { useRuntime, useTenant } from '../../runtime/context';
import { hasStoredEnrolment } from '../../runtime/enrolment-storage';
import { loadMachine } from '../../runtime/machines';
import { LANDING_IMAGE } from './landing-image';

// Landing, a signed-in first screen, is a chunk of its own: the other steps' code (Markdown, the privacy checks)
// loads when the person reaches them. Landing draws nothing of the enrolment machine in its first state
// (notEnrolled) but the register mode, which the session tells: the machine, its child machines and the frame that
// mirrors it (enrolment-frame, ~9 KB) load when the person presses Start, or at once when an enrolment kept in this
// browser is to be resumed (the machine then names the step, and the URL follows it).
type FrameModule = typeof import('./enrolment-frame');
let frameModule: FrameModule | undefined;
let frameLoading: Promise<FrameModule> | undefined;
function loadFrame(): Promise<FrameModule> {
  // The flow's handle (src/app registers where it comes from) loads beside the frame, and so do the words of the
  // other screens: Start's call may fail on Landing, whose catalogue part has no words for a network outage or a
  // server error (they would show as an unknown problem), and the step after Start needs them anyway. A part that
  // does not load leaves those notices to their fallback; it holds nothing up.
  frameLoading ??= Promise.all([
    import('./enrolment-frame'),
    loadMachine('enrolment'),
    loadRestOfCatalogue().catch(() => undefined),
  ])
    .then(([module]) => {
      frameModule = module;
      return module;
    })
    .catch((error: unknown) => {
      frameLoading = undefined;
      throw error;
    });
  return frameLoading;
}

type StartEvent = { type: 'onboarding.start'; assistedUserId?: string; assistedEmail?: string };

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

const CLOSED = defineMessages({
  self: { id: 'landing.selfClosed' },
  assisted: { id: 'landing.assistedClosed' },
});

/** Landing (spec §2): image, title, description and a Start button that begins enrolment. */
export function Landing() {
  const runtime = useRuntime();
  const intl = useIntl();
  const [frame, setFrame] = useState(frameModule);
  const [starting, setStarting] = useState(false);
  const form = useLandingForm();
  const signedIn = useSelector(runtime.session, (s) => s.context.session);
  // An enrolment to resume: the machine decides the screen, so it loads at once.
  const resume = !frame && hasStoredEnrolment(runtime);
  useEffect(() => {
    if (resume) void loadFrame().then(setFrame, () => undefined);
  }, [resume]);
  if (frame) {
    const { EnrolmentFrame } = frame;
    return (
      <EnrolmentFrame screen="Landing">
        {({ actor, snapshot }) => (
          <LandingCard
            form={form}
            assisted={snapshot.context.registerMode === 'assisted'}
            busy={snapshot.hasTag('busy')}
            onStart={(event) => actor.send(event)}
          />
        )}
      </EnrolmentFrame>
    );
  }
  if (resume || !signedIn) return <Spinner label={intl.formatMessage({ id: 'common.loading' })} />;
  // The machine's first state, drawn without it (the same section the frame draws).
  return (
    <section data-screen="Landing" data-state={JSON.stringify('notEnrolled')} className="flex flex-col gap-6">
      <LandingCard
        form={form}
        assisted={registerMode(signedIn) === 'assisted'}
        busy={starting}
        onStart={(event) => {
          setStarting(true);
          void Promise.all([loadFrame(), loadMachine('enrolment')]).then(
            ([module, enrolment]) => {
              // The person's enrolment actor, in notEnrolled, hears the Start the card sent.
              enrolment(runtime).actor()?.send(event);
              setFrame(module);
            },
            () => setStarting(false),
          );
        }}
      />
    </section>
  );
}

function useLandingForm() {
  const [assistedEmail, setAssistedEmail] = useState('');
  const [tried, setTried] = useState(false);
  // AssistedExistingUsers (spec §4): the assistant may re-enrol an existing user instead of a new person.
  const [who, setWho] = useState<'new' | 'existing'>('new');
  const [existingUser, setExistingUser] = useState<string | null>(null);
  return { assistedEmail, setAssistedEmail, tried, setTried, who, setWho, existingUser, setExistingUser };
}

function LandingCard({
  form,
  assisted,
  busy,
  onStart,
}: {
  form: ReturnType<typeof useLandingForm>;
  /** Assisted mode (spec §4): the assistant registers someone else, named by their email. */
  assisted: boolean;
  busy: boolean;
  onStart: (event: StartEvent) => void;
}) {
  const { settings } = useTenant();
  const intl = useIntl();
  const { assistedEmail, setAssistedEmail, tried, setTried, who, setWho, existingUser, setExistingUser } =
    form;
  const offersExisting = (settings.registerTypes ?? []).includes('AssistedExistingUsers');
  const image = settings.customImages.landing
    ? `${settings.assetsUrl}/${settings.customImages.landing}`
    : LANDING_IMAGE;
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
        <Suspense fallback={<Spinner label={intl.formatMessage({ id: 'common.loading' })} />}>
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
          loading={busy}
          disabled={assisted && offersExisting && who === 'existing' && existingUser === null}
          onClick={() => {
            setTried(true);
            if (!assisted) onStart({ type: 'onboarding.start' });
            else if (offersExisting && who === 'existing' && existingUser)
              onStart({ type: 'onboarding.start', assistedUserId: existingUser });
            else if (!emailError) onStart({ type: 'onboarding.start', assistedEmail });
          }}
        >
          <FormattedMessage id="landing.start" />
        </Button>
      )}
      <KnowMoreLink url={settings.knowMoreUrl} className="mt-4 text-brand-strong underline" />
    </Card>
  );
}
