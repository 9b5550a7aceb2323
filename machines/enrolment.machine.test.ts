import { describe, expect, it, vi } from 'vitest';
import {
  type ActorRefFrom,
  type AnyMachineSnapshot,
  createActor,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
  waitFor,
} from 'xstate';
import type {
  ConfirmationResult,
  CreatedOnboarding,
  PortrayalResult,
  RegistrationPayload,
} from '../contract/api/onboarding';
import type { ReviewFields } from '../contract/domain/registration';
import {
  type ConfirmRegistrationInput,
  type EnrolmentInput,
  enrolmentMachine,
  onboardingClientState,
  type UploadImageInput,
} from './enrolment.machine';
import { imageUploadMachine } from './image-upload.machine';
import { type PortrayalFetch, portrayalResultMachine } from './portrayal-result.machine';

const onboarding: CreatedOnboarding = {
  onboarding_id: 'o-1',
  identity_proofing: true,
  life_proofing: false,
  biometric_qr: true,
  supported_docs: ['id_card', 'passport', 'driving_license'],
};

const result: PortrayalResult = {
  portrayal_id: 'p-1',
  document_info: {
    first_name: 'ANA',
    last_name: 'GARCIA LOPEZ',
    birth_date: '1990-04-01',
    id_number: '12345678Z',
    document_number: 'CAA000000',
    expiry_date: '2031-01-01',
    expedition_country: 'ESP',
    nationality: 'ESP',
    document_type: 'id_card',
  },
  selfie_authenticity_valid: true,
};

const reviewed: ReviewFields = {
  first_name: 'Ana María',
  last_name: 'GARCIA LOPEZ',
  birth_date: '01/04/1990',
  id_number: '12345678Z',
  document_number: 'CAA000000',
  expiry_date: '2031-01-01',
  expedition_country: 'ESP',
  nationality: 'ESP',
};

const accepted: ConfirmationResult = {
  result: { outcome: 'accepted', reason: null },
  user_id: 'u-1',
  qr_sid: 'qr-1',
};

const input: EnrolmentInput = {
  settings: { domain: 'gambling', showNextSteps: false, onboardingSteps: false, biometricQR: true },
  registerMode: 'auto',
  claims: null,
  email: 'ana@gambling.example',
};

/** The spec screen of the deepest active state with meta.screen (what the router mirror shows). */
function screenOf(snapshot: AnyMachineSnapshot): string | undefined {
  let best: { depth: number; screen: string } | undefined;
  for (const [id, meta] of Object.entries(snapshot.getMeta())) {
    const screen = (meta as { screen?: unknown } | undefined)?.screen;
    if (typeof screen !== 'string') continue;
    const depth = id.split('.').length;
    if (!best || depth > best.depth) best = { depth, screen };
  }
  return best?.screen;
}

function start(options: {
  input?: EnrolmentInput;
  created?: CreatedOnboarding;
  upload?: (input: UploadImageInput) => Promise<void>;
  fetches?: PortrayalFetch[];
  confirm?: (input: ConfirmRegistrationInput) => Promise<ConfirmationResult>;
  snapshot?: unknown;
}) {
  const fetches = [...(options.fetches ?? [{ status: 'done', result }])];
  const spies = {
    createOnboarding: vi.fn(),
    createPortrayal: vi.fn(),
    upload: vi.fn<(input: UploadImageInput) => void>(),
    fetch: vi.fn(),
    confirm: vi.fn<(input: ConfirmRegistrationInput) => void>(),
    deleteOnboarding: vi.fn(),
    persist: vi.fn(),
    forgetOnboarding: vi.fn(),
    markEnrolled: vi.fn(),
  };
  const clock = new SimulatedClock();
  const machine = enrolmentMachine.provide({
    actors: {
      createOnboarding: fromPromise(async ({ input }) => {
        spies.createOnboarding(input);
        return options.created ?? onboarding;
      }),
      acceptLegalTerms: fromPromise(async () => {}),
      createPortrayal: fromPromise(async ({ input }) => {
        spies.createPortrayal(input);
        return { portrayal_id: 'p-1', life_proofing: false };
      }),
      imageUpload: imageUploadMachine.provide({
        actors: {
          uploadImage: fromPromise(async ({ input }) => {
            spies.upload(input);
            await options.upload?.(input);
          }),
          requestChallenge: fromPromise(async () => ({
            challenge_id: 'c-1',
            actions: ['blink', 'smile', 'turn_left'],
            expiration: 60,
            expires_at: '2030-01-01T00:00:00Z',
          })),
        },
        actions: { persist: spies.persist },
      }),
      confirmRegistration: fromPromise(async ({ input }) => {
        spies.confirm(input);
        return options.confirm ? options.confirm(input) : accepted;
      }),
      deleteOnboarding: fromPromise(async ({ input }) => {
        spies.deleteOnboarding(input);
      }),
      portrayalResult: portrayalResultMachine.provide({
        actors: {
          fetchPortrayalResult: fromPromise(async ({ input }) => {
            spies.fetch(input);
            return fetches.shift() ?? { status: 'pending' };
          }),
        },
      }),
    },
    actions: {
      persist: spies.persist,
      forgetOnboarding: spies.forgetOnboarding,
      markEnrolled: spies.markEnrolled,
    },
  });
  const actor = createActor(machine, {
    input: options.input ?? input,
    clock,
    ...(options.snapshot ? { snapshot: options.snapshot as never } : {}),
  });
  actor.start();
  return { actor, spies, clock };
}

type Started = ReturnType<typeof start>;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const screen = (started: Started) => screenOf(started.actor.getSnapshot());

type Picture = 'obverse' | 'reverse' | 'selfie' | 'lifeproof';
type UploadState = Parameters<SnapshotFrom<typeof imageUploadMachine>['matches']>[0];

/** The image upload child of the capture step the enrolment is at. */
const upload = (started: Started) =>
  started.actor.getSnapshot().children.imageUpload as ActorRefFrom<typeof imageUploadMachine>;

/** Whether the enrolment is at this picture and its upload in this state. */
const isAtUpload = (started: Started, picture: Picture, state: UploadState) =>
  started.actor.getSnapshot().matches({ onboarding: { images: picture } }) &&
  upload(started).getSnapshot().matches(state);

/** Waits for the enrolment to be at this picture, then for its upload to be in this state. */
async function atUpload(started: Started, picture: Picture, state: UploadState) {
  await waitFor(started.actor, (s) => s.matches({ onboarding: { images: picture } }));
  await waitFor(upload(started), (s) => s.matches(state));
}

/** From Landing to the obverse scan of a Spanish ID card. */
async function toObverseScan(started: Started) {
  started.actor.send({ type: 'onboarding.start' });
  await waitFor(started.actor, (s) => s.matches({ onboarding: 'legalTerms' }));
  started.actor.send({ type: 'legalTerms.accept', termsAccepted: true, legitimacyConfirmed: false });
  await waitFor(started.actor, (s) => s.matches({ onboarding: 'choosingDocument' }));
  started.actor.send({ type: 'document.chosen', documentType: 'id_card', documentCountry: 'es' });
  await atUpload(started, 'obverse', 'capturing');
}

async function toReview(started: Started) {
  if (!started.actor.getSnapshot().matches({ onboarding: 'images' })) await toObverseScan(started);
  started.actor.send({ type: 'image.captured', image: { ref: 'obverse-1' } });
  await atUpload(started, 'reverse', 'capturing');
  started.actor.send({ type: 'image.captured', image: { ref: 'reverse-1' } });
  await atUpload(started, 'selfie', 'capturing');
  started.actor.send({ type: 'image.captured', image: { ref: 'selfie-1' } });
  await waitFor(started.actor, (s) => s.matches({ onboarding: 'result' }));
  await settle();
  started.clock.increment(2000);
  await waitFor(started.actor, (s) => s.matches({ onboarding: 'review' }));
}

describe('enrolment machine', () => {
  it('an assistant starts an assisted onboarding for the person whose email they give', async () => {
    const { actor, spies } = start({ input: { ...input, registerMode: 'assisted' } });
    actor.send({ type: 'onboarding.start', assistedEmail: '  jon@example.com ' });
    await waitFor(actor, (s) => s.matches({ onboarding: 'legalTerms' }));
    expect(spies.createOnboarding).toHaveBeenCalledWith({
      mode: 'assisted',
      userId: null,
      userData: { email: 'jon@example.com' },
    });
    expect(actor.getSnapshot().context.assistedEmail).toBe('jon@example.com');
  });

  it('enrols a person in auto mode end to end and finishes on FinishRegisterWithQr with the payload sent', async () => {
    const started = start({ fetches: [{ status: 'pending' }, { status: 'done', result }] });
    expect(screen(started)).toBe('Landing');
    await toObverseScan(started);
    expect(screen(started)).toBe('DocumentScan');
    expect(started.spies.createPortrayal).toHaveBeenCalledWith({
      onboardingId: 'o-1',
      portrayalType: 'document',
      documentType: 'id_card',
      documentCountry: 'ES',
    });
    await toReview(started);
    expect(started.spies.upload.mock.calls.map(([call]) => [call.kind, call.image.ref])).toEqual([
      ['obverse', 'obverse-1'],
      ['reverse', 'reverse-1'],
      ['selfie', 'selfie-1'],
    ]);
    expect(started.spies.fetch).toHaveBeenCalledTimes(2);
    expect(screen(started)).toBe('ReviewRegister');
    expect(started.actor.getSnapshot().context.review?.first_name).toBe('ANA');

    started.actor.send({ type: 'review.confirm', fields: reviewed });
    expect(screen(started)).toBe('RegisterForm');
    started.actor.send({ type: 'form.submit', email: 'ana@example.com', phone: '600 000 000' });
    await waitFor(started.actor, (s) => s.matches('enrolled'));

    expect(screen(started)).toBe('FinishRegisterWithQr');
    const sent = started.spies.confirm.mock.calls[0]?.[0];
    expect(sent?.onboardingId).toBe('o-1');
    expect(sent?.portrayalId).toBe('p-1');
    expect(sent?.payload).toEqual({
      first_name: 'Ana María',
      last_name: 'GARCIA LOPEZ',
      birth_date: '1990-04-01',
      expiry_date: '2031-01-01',
      id_number: '12345678Z',
      document_number: 'CAA000000',
      document_type: 'id_card',
      expedition_country: 'ESP',
      nationality: 'ESP',
      // gambling domain in auto mode: the email travels in extra_fields (spec §5)
      extra_fields: { phone: '600 000 000', email: 'ana@example.com' },
    } satisfies RegistrationPayload);
    expect(sent?.ocrAdaptations).toEqual([{ field: 'first_name', value: 'Ana María' }]);
    expect(started.actor.getSnapshot().context.registration).toMatchObject({ userId: 'u-1', qrSid: 'qr-1' });
    expect(started.actor.getSnapshot().context.enrolled).toBe(true);
    expect(started.spies.markEnrolled).toHaveBeenCalledOnce();
    expect(started.spies.forgetOnboarding).toHaveBeenCalledOnce();
  });

  it('finishes on FinishRegister when the tenant issues no biometric QR', async () => {
    const started = start({ created: { ...onboarding, biometric_qr: false } });
    await toReview(started);
    started.actor.send({ type: 'review.confirm', fields: reviewed });
    started.actor.send({ type: 'form.submit' });
    await waitFor(started.actor, (s) => s.matches('enrolled'));
    expect(screen(started)).toBe('FinishRegister');
  });

  it('keeps the picture when its upload fails, and upload.retry sends the same picture again', async () => {
    let failures = 1;
    const started = start({
      upload: async () => {
        if (failures-- > 0) throw Object.assign(new Error('502'), { code: 'upload_failed' });
      },
    });
    await toObverseScan(started);
    started.actor.send({ type: 'image.captured', image: { ref: 'obverse-1' } });
    await atUpload(started, 'obverse', 'uploadFailed');
    expect(screen(started)).toBe('DocumentScan');
    expect(upload(started).getSnapshot().context.image).toEqual({ ref: 'obverse-1' });

    started.actor.send({ type: 'upload.retry' });
    await atUpload(started, 'reverse', 'capturing');
    expect(started.spies.upload.mock.calls.map(([call]) => call.image.ref)).toEqual([
      'obverse-1',
      'obverse-1',
    ]);
    // The reverse's upload starts with no picture: the obverse's was let go once the server had it.
    expect(upload(started).getSnapshot().context.image).toBeNull();
  });

  it('asks for the picture again when it is no longer available (after a reload)', async () => {
    const started = start({
      upload: async () => {
        throw { code: 'image_not_available' };
      },
    });
    await toObverseScan(started);
    started.actor.send({ type: 'image.captured', image: { ref: 'gone' } });
    await atUpload(started, 'obverse', 'imageNotAvailable');
    expect(upload(started).getSnapshot().context.image).toBeNull();
    expect(upload(started).getSnapshot().can({ type: 'upload.retry' })).toBe(false);
  });

  it('sets enrolled when the server answers user_already_registered', async () => {
    const started = start({
      confirm: async () => ({
        result: { outcome: 'rejected', reason: 'user_already_registered' },
        user_id: null,
        qr_sid: null,
      }),
    });
    await toReview(started);
    started.actor.send({ type: 'review.confirm', fields: reviewed });
    started.actor.send({ type: 'form.submit' });
    await waitFor(started.actor, (s) => s.matches({ onboarding: 'registrationFailed' }));
    const snapshot = started.actor.getSnapshot();
    expect(snapshot.matches({ onboarding: { registrationFailed: 'alreadyRegistered' } })).toBe(true);
    expect(snapshot.context.enrolled).toBe(true);
    expect(started.spies.markEnrolled).toHaveBeenCalledOnce();
    expect(screen(started)).toBe('FinishRegisterWithError');
    expect(snapshot.can({ type: 'registration.retry' })).toBe(false);
  });

  it('re-sends the same confirmation when the prohibited-list service was unavailable', async () => {
    let unavailable = true;
    const started = start({
      confirm: async () => {
        if (!unavailable) return accepted;
        unavailable = false;
        return {
          result: { outcome: 'rejected', reason: 'enforcement_source_unavailable' },
          user_id: null,
          qr_sid: null,
        };
      },
    });
    await toReview(started);
    started.actor.send({ type: 'review.confirm', fields: reviewed });
    started.actor.send({ type: 'form.submit' });
    await waitFor(started.actor, (s) =>
      s.matches({ onboarding: { registrationFailed: 'enforcementSourceUnavailable' } }),
    );
    started.actor.send({ type: 'registration.retry' });
    await waitFor(started.actor, (s) => s.matches('enrolled'));
    const [first, second] = started.spies.confirm.mock.calls.map(([call]) => call.payload);
    expect(second).toEqual(first);
  });

  it('gives up on the result at exactly 16 s and retries the scan with the same onboarding', async () => {
    const started = start({ fetches: [] });
    await toObverseScan(started);
    for (const ref of ['obverse-1', 'reverse-1', 'selfie-1']) {
      started.actor.send({ type: 'image.captured', image: { ref } });
      await settle();
      await settle();
    }
    expect(started.actor.getSnapshot().matches({ onboarding: 'result' })).toBe(true);
    for (let elapsed = 0; elapsed < 14000; elapsed += 2000) {
      await settle();
      started.clock.increment(2000);
    }
    await settle();
    started.clock.increment(1999);
    expect(started.actor.getSnapshot().matches({ onboarding: 'result' })).toBe(true);
    started.clock.increment(1);
    expect(started.actor.getSnapshot().matches({ onboarding: { scanFailed: 'timeout' } })).toBe(true);
    expect(started.spies.fetch).toHaveBeenCalledTimes(8);
    expect(started.actor.getSnapshot().getMeta()['enrolment.onboarding.scanFailed.timeout']).toMatchObject({
      screen: 'DocumentScan',
      scanError: 'undefined',
    });

    started.actor.send({ type: 'scan.retry' });
    expect(isAtUpload(started, 'obverse', 'capturing')).toBe(true);
    expect(started.actor.getSnapshot().context.onboardingId).toBe('o-1');
  });

  it('after the result did not come in time, checks again for the same pictures without taking them again', async () => {
    const started = start({ fetches: [] });
    await toObverseScan(started);
    for (const ref of ['obverse-1', 'reverse-1', 'selfie-1']) {
      started.actor.send({ type: 'image.captured', image: { ref } });
      await settle();
      await settle();
    }
    for (let elapsed = 0; elapsed < 16000; elapsed += 2000) {
      await settle();
      started.clock.increment(2000);
    }
    expect(started.actor.getSnapshot().matches({ onboarding: { scanFailed: 'timeout' } })).toBe(true);
    const asked = started.spies.fetch.mock.calls.length;
    started.actor.send({ type: 'result.retry' });
    expect(screen(started)).toBe('ReviewRegister');
    await settle();
    expect(started.spies.fetch).toHaveBeenCalledTimes(asked + 1);
    expect(started.spies.fetch).toHaveBeenLastCalledWith({ portrayalId: 'p-1' });
    expect(started.spies.upload).toHaveBeenCalledTimes(3);
  });

  it('resumes from a persisted snapshot on the screen the person left', async () => {
    const first = start({});
    await toObverseScan(first);
    first.actor.send({ type: 'image.captured', image: { ref: 'obverse-1' } });
    await atUpload(first, 'reverse', 'capturing');
    const stored = JSON.parse(JSON.stringify(first.actor.getPersistedSnapshot()));
    first.actor.stop();
    expect(onboardingClientState(stored.context)).toMatchObject({
      onboardingId: 'o-1',
      identityPortrayalId: 'p-1',
      documentType: 'id_card',
      documentCountry: 'ES',
      registerType: 'WithIdentityProofing',
      registerMode: 'auto',
      supportedDocs: ['id_card', 'passport', 'driving_license'],
    });

    const resumed = start({ snapshot: stored });
    expect(screen(resumed)).toBe('DocumentScan');
    expect(isAtUpload(resumed, 'reverse', 'capturing')).toBe(true);
    resumed.actor.send({ type: 'image.captured', image: { ref: 'reverse-1' } });
    await atUpload(resumed, 'selfie', 'capturing');
    expect(resumed.spies.upload).toHaveBeenCalledWith(expect.objectContaining({ portrayalId: 'p-1' }));
  });

  it('on a computer the data and capture steps show DeviceDetect; the steps before them do not (spec §2)', async () => {
    const pc = start({
      input: { ...input, settings: { ...input.settings, showNextSteps: true, onboardingSteps: false } },
    });
    pc.actor.send({ type: 'device.checked', ok: false });
    pc.actor.send({ type: 'onboarding.start' });
    await waitFor(pc.actor, (s) => s.matches({ onboarding: 'nextSteps' }));
    expect(screen(pc)).toBe('NextSteps');
    pc.actor.send({ type: 'steps.continue' });
    expect(pc.actor.getSnapshot().matches({ onboarding: 'otherDevice' })).toBe(true);
    expect(screen(pc)).toBe('DeviceDetect');
    // A step restored from storage is checked too: the app sends device.checked when the actor starts.
    const restored = start({});
    await toObverseScan(restored);
    restored.actor.send({ type: 'image.captured', image: { ref: 'obverse-1' } });
    await atUpload(restored, 'reverse', 'capturing');
    restored.actor.send({ type: 'device.checked', ok: false });
    expect(screen(restored)).toBe('DocumentScan');
    restored.actor.send({ type: 'image.captured', image: { ref: 'reverse-1' } });
    await waitFor(restored.actor, (s) => s.matches({ onboarding: 'otherDevice' }));
    expect(restored.spies.upload).toHaveBeenCalledTimes(2);
  });

  it('leaving names the home screen the app gives (homeIs), and the enrolment is over', async () => {
    const machine = enrolmentMachine.provide({
      actors: { createOnboarding: fromPromise(async () => onboarding) },
      guards: { homeIs: (_, params) => params.screen === 'PortalManagement' },
    });
    const actor = createActor(machine, { input }).start();
    actor.send({ type: 'onboarding.start' });
    await waitFor(actor, (s) => s.matches({ onboarding: 'legalTerms' }));
    actor.send({ type: 'onboarding.stop' });
    expect(actor.getSnapshot().matches({ left: 'portalManagement' })).toBe(true);
    expect(screenOf(actor.getSnapshot())).toBe('PortalManagement');
    expect(actor.getSnapshot().can({ type: 'onboarding.start' })).toBe(false);
  });

  it('cancelling deletes the onboarding and goes home; stopping forgets it without deleting', async () => {
    const cancelled = start({});
    await toObverseScan(cancelled);
    cancelled.actor.send({ type: 'onboarding.cancel' });
    // Home, for someone not enrolled, is Landing (the app names the home screen: homeIs).
    await waitFor(cancelled.actor, (s) => s.matches({ left: 'landing' }));
    expect(cancelled.spies.deleteOnboarding).toHaveBeenCalledWith({ onboardingId: 'o-1' });
    expect(screen(cancelled)).toBe('Landing');
    expect(cancelled.actor.getSnapshot().context.onboardingId).toBeNull();

    const stopped = start({});
    await toObverseScan(stopped);
    stopped.actor.send({ type: 'onboarding.stop' });
    expect(stopped.actor.getSnapshot().matches({ left: 'landing' })).toBe(true);
    expect(stopped.spies.deleteOnboarding).not.toHaveBeenCalled();
    expect(stopped.spies.forgetOnboarding).toHaveBeenCalledOnce();
    expect(stopped.actor.getSnapshot().context.documentType).toBeNull();
  });

  it('goes from Start to the step of spec §2', async () => {
    const steps = start({
      input: { ...input, settings: { ...input.settings, showNextSteps: true, onboardingSteps: true } },
    });
    steps.actor.send({ type: 'onboarding.start' });
    await waitFor(steps.actor, (s) => s.matches({ onboarding: 'nextSteps' }));
    steps.actor.send({ type: 'steps.continue' });
    expect(screen(steps)).toBe('IdentityProofingStep');

    const selfieOnly = start({ created: { ...onboarding, identity_proofing: false } });
    selfieOnly.actor.send({ type: 'onboarding.start' });
    await waitFor(selfieOnly.actor, (s) => s.matches({ onboarding: 'legalTerms' }));
    selfieOnly.actor.send({ type: 'legalTerms.accept', termsAccepted: true, legitimacyConfirmed: false });
    await waitFor(selfieOnly.actor, (s) => s.matches({ onboarding: 'registerSelfie' }));
    expect(selfieOnly.actor.getSnapshot().context.registerType).toBe('OnlySelfieWithId');
    selfieOnly.actor.send({ type: 'selfie.start' });
    await atUpload(selfieOnly, 'selfie', 'capturing');
    expect(selfieOnly.spies.createPortrayal).toHaveBeenCalledWith(
      expect.objectContaining({ portrayalType: 'selfie', documentType: 'none', documentCountry: null }),
    );
  });

  it('in assisted mode needs the legal legitimacy confirmed, and sends the assisted email unchecked', async () => {
    const started = start({
      input: {
        ...input,
        settings: { ...input.settings, domain: 'demo' },
        registerMode: 'assisted',
        assistedUserId: 'u-9',
        assistedEmail: 'guest@example.com',
      },
    });
    started.actor.send({ type: 'onboarding.start' });
    await waitFor(started.actor, (s) => s.matches({ onboarding: 'legalTerms' }));
    started.actor.send({ type: 'legalTerms.accept', termsAccepted: true, legitimacyConfirmed: false });
    expect(started.actor.getSnapshot().matches({ onboarding: 'legalTerms' })).toBe(true);
    started.actor.send({ type: 'legalTerms.accept', termsAccepted: true, legitimacyConfirmed: true });
    await waitFor(started.actor, (s) => s.matches({ onboarding: 'choosingDocument' }));
    started.actor.send({ type: 'document.chosen', documentType: 'passport', documentCountry: null });
    await atUpload(started, 'obverse', 'capturing');
    started.actor.send({ type: 'image.captured', image: { ref: 'obverse-1' } });
    // a passport has no reverse
    await atUpload(started, 'selfie', 'capturing');
    started.actor.send({ type: 'image.captured', image: { ref: 'selfie-1' } });
    await waitFor(started.actor, (s) => s.matches({ onboarding: 'review' }));
    started.actor.send({ type: 'review.confirm', fields: reviewed });
    started.actor.send({ type: 'form.submit', email: 'typed@example.com' });
    await waitFor(started.actor, (s) => s.matches('enrolled'));
    const payload = started.spies.confirm.mock.calls[0]?.[0].payload;
    expect(payload).toMatchObject({
      email: 'guest@example.com',
      skip_email_check: true,
      document_type: 'passport',
    });
    expect(payload?.extra_fields).toBeUndefined();
  });
});
