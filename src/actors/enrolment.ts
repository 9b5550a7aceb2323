// The enrolment machine with its real effects (ARCHITECTURE.md: machines name effects, src/actors implements
// them). Loaded with the onboarding chunk, one actor per signed-in person and tenant, its snapshot kept in
// localStorage (spec §3: the onboarding state persists) so that a reload resumes the same step. Captured pictures
// live only in memory, in the image store beside the actor.
import { type ActorRefFrom, createActor, type Snapshot } from 'xstate';
import { IMAGE_REFUSAL_CODES, type ImageRefusalCode } from '../../contract/api/image-refusals';
import { postEnrolmentScreen } from '../../contract/domain/enrolment';
import {
  type ConfirmationError,
  type EnrolmentInput,
  enrolmentMachine,
  type HomeScreen,
} from '../../machines/enrolment.machine';
import {
  type CapturedImage,
  imageUploadMachine,
  type UploadError,
} from '../../machines/image-upload.machine';
import { portrayalResultMachine } from '../../machines/portrayal-result.machine';
import type { ApiClient } from '../api/client';
import { type ApiErrorKind, isApiError, serverText } from '../api/errors';
import { homeScreen, registerMode, type Session } from '../auth/access';
import { checkBrowser, parseUserAgent } from '../domain/browser-check';
import { pathFor, type ScreenName } from '../domain/screens';
import type { Runtime } from '../runtime/context';
import type { EnrolmentActor, EnrolmentRuntime, ImageStore } from '../runtime/enrolment';
import { enrolmentStorageKey } from '../runtime/enrolment-storage';
import { fromPromise } from './promise';

// The API calls and their response schemas (arktype) load with the first call: Landing, which makes none,
// draws without them.
const onboardingCalls = () => import('../api/onboardings');
const portrayalCalls = () => import('../api/portrayals');

const storageKey = enrolmentStorageKey;

/** The server's codes of a picture refused for what it is (spec §5): the machine's image_refused. */
const IMAGE_CODES: ReadonlySet<string> = new Set(IMAGE_REFUSAL_CODES);
const isImageRefusal = (code: string | undefined): code is ImageRefusalCode =>
  !!code && IMAGE_CODES.has(code);

/** What the image upload machine hears of a failed upload: busy, image_refused with its code, or upload_failed. */
export function uploadErrorOf(error: unknown): UploadError {
  // The server is busy with other pictures: the machine sends this one again after the seconds it asked for.
  if (isApiError(error) && error.status === 429) {
    const header = (error.cause as { response?: Response } | undefined)?.response?.headers.get('retry-after');
    const seconds = Number((error.body as { retry_after?: unknown } | undefined)?.retry_after ?? header);
    return { code: 'busy', ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfter: seconds } : {}) };
  }
  if (isApiError(error)) {
    const problem = error.problem;
    const refusal = problem?.errors?.map((e) => e.code).find(isImageRefusal) ?? problem?.code;
    if (isImageRefusal(refusal)) return { code: 'image_refused', refusal };
  }
  return { code: 'upload_failed' };
}

/** The API client's words for a call that got no answer to read (src/api/errors.ts generalNotice). */
const CALL_FAILURES: Partial<Record<ApiErrorKind, string>> = {
  network: 'common.http.network',
  timeout: 'common.http.timeout',
  contract: 'common.http.contract',
};

function createProgress() {
  let value: number | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: number | null) {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function readSnapshot(key: string): Snapshot<unknown> | undefined {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Snapshot<unknown>) : undefined;
  } catch {
    window.localStorage.removeItem(key);
    return undefined;
  }
}

export function createEnrolmentRuntime(runtime: Runtime): EnrolmentRuntime {
  const images: ImageStore = new Map();
  const progress = createProgress();
  let current: { key: string; actor: EnrolmentActor; locale: { unsubscribe(): void } } | undefined;
  let refs = 0;

  const api = (): Promise<ApiClient> => runtime.apiClient();
  const signedIn = (): Session | null => runtime.session.getSnapshot().context.session;

  async function send(image: CapturedImage, upload: (blob: Blob | Blob[]) => Promise<void>) {
    const blob = images.get(image.ref);
    if (!blob) throw { code: 'image_not_available' } satisfies UploadError;
    progress.set(0);
    try {
      try {
        await upload(blob);
      } catch (error) {
        // One quiet second try when the network dropped; the picture is still here either way.
        if (!isApiError(error) || error.kind !== 'network') throw error;
        await upload(blob);
      }
      images.delete(image.ref);
    } catch (error) {
      throw uploadErrorOf(error);
    } finally {
      progress.set(null);
    }
  }

  // Entry actions run before the new snapshot exists: save once it does. The image upload child saves the
  // enrolment too (its snapshot is part of the enrolment's).
  function persistNow(key: string) {
    queueMicrotask(() => {
      if (current?.key !== key) return;
      window.localStorage.setItem(key, JSON.stringify(current.actor.getPersistedSnapshot()));
    });
  }

  /**
   * A picture waiting to be sent again lives in this page's memory only: restored after a reload (or after signing in
   * again), its step would offer to send what is no longer there. The upload hears its retry at once and, finding no
   * picture, asks for it again (image_not_available) without a call.
   */
  function forgetLostPicture(actor: EnrolmentActor) {
    const upload = actor.getSnapshot().children.imageUpload as
      | ActorRefFrom<typeof imageUploadMachine>
      | undefined;
    const waiting = upload?.getSnapshot();
    if (waiting?.matches('uploadFailed') && !images.has(waiting.context.image?.ref ?? '')) {
      actor.send({ type: 'upload.retry' });
    }
  }

  /** The tenant's terms of use in the current language, else Spanish (spec §7 {assets}/tos-{lang}.md). */
  async function fetchTerms(signal: AbortSignal): Promise<string> {
    const { tenant, locale } = runtime.app.getSnapshot().context;
    const load = async (lang: string) => {
      const response = await fetch(`${tenant?.settings.assetsUrl ?? ''}/tos-${lang}.md`, {
        cache: 'no-cache',
        signal,
      });
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || type.includes('text/html')) throw new Error(`terms ${lang}: ${response.status}`);
      return response.text();
    };
    try {
      return await load(locale);
    } catch (error) {
      if (locale === 'es' || signal.aborted) throw error;
      return load('es');
    }
  }

  /** The terms follow the language the person chooses. */
  function followLocale(actor: EnrolmentActor) {
    let locale = runtime.app.getSnapshot().context.locale;
    const subscription = runtime.app.subscribe((snapshot) => {
      if (snapshot.context.locale === locale) return;
      locale = snapshot.context.locale;
      actor.send({ type: 'locale.changed' });
    });
    actor.subscribe({ complete: () => subscription.unsubscribe() });
    return subscription;
  }

  /** Spec §2, §5: a phone in a supported, recent browser may take the data and capture steps. */
  function deviceSupported(): boolean {
    const browsers = runtime.app.getSnapshot().context.tenant?.browsers ?? {};
    return checkBrowser(parseUserAgent(navigator.userAgent, navigator.maxTouchPoints), browsers).ok;
  }

  /**
   * Leaving the enrolment is a transition to a `left` state naming the person's home screen; the URL follows
   * it here, since the screen the person left from (DeviceDetect among them) need not mirror the machine.
   */
  function followHome(actor: EnrolmentActor) {
    let left = actor.getSnapshot().matches('left');
    actor.subscribe((snapshot) => {
      const entered = snapshot.matches('left') && !left;
      left = snapshot.matches('left');
      if (!entered) return;
      const screen = Object.values(snapshot.getMeta()).find(
        (meta) => typeof meta?.screen === 'string',
      )?.screen;
      const path = screen ? pathFor(screen as ScreenName) : undefined;
      if (path) runtime.navigate(path);
    });
  }

  function machineFor(key: string) {
    return enrolmentMachine.provide({
      actors: {
        createOnboarding: fromPromise(async ({ input }) =>
          (await onboardingCalls()).createOnboarding(await api(), {
            mode: input.mode,
            ...(input.userId ? { user_id: input.userId } : {}),
            ...(input.userData ? { userData: input.userData } : {}),
          }),
        ),
        acceptLegalTerms: fromPromise(async ({ input }) =>
          (await onboardingCalls()).acceptLegalTerms(await api(), input.onboardingId),
        ),
        createPortrayal: fromPromise(async ({ input }) =>
          (await portrayalCalls()).createPortrayal(await api(), {
            onboarding_id: input.onboardingId,
            portrayal_type: input.portrayalType,
            document_type: input.documentType === 'none' ? null : input.documentType,
            document_country: input.documentCountry,
          }),
        ),
        imageUpload: imageUploadMachine.provide({
          actors: {
            uploadImage: fromPromise(async ({ input }) => {
              const [client, calls] = await Promise.all([api(), portrayalCalls()]);
              await send(input.image, (blob) => {
                if (input.kind === 'lifeproof') {
                  const frames = Array.isArray(blob) ? blob : [blob];
                  return calls.uploadLifeproof(
                    client,
                    input.portrayalId,
                    { frames, challengeId: input.challengeId },
                    progress.set,
                  );
                }
                if (Array.isArray(blob)) throw { code: 'image_wrong_type' } satisfies UploadError;
                return calls.uploadPortrayalImage(client, input.portrayalId, input.kind, blob, progress.set);
              });
            }),
            requestChallenge: fromPromise(async ({ input }) =>
              (await portrayalCalls()).requestChallenge(await api(), input),
            ),
          },
          actions: { persist: () => persistNow(key) },
        }),
        confirmRegistration: fromPromise(async ({ input }) => {
          try {
            return await (await onboardingCalls()).confirmRegistration(
              await api(),
              input.onboardingId,
              input.portrayalId,
              input.payload,
            );
          } catch (error) {
            throw {
              code: isApiError(error) ? (error.problem?.code ?? null) : null,
              errors: isApiError(error) ? (error.problem?.errors ?? []) : [],
              detail: isApiError(error) ? serverText(error) || null : null,
              failure: isApiError(error) ? (CALL_FAILURES[error.kind] ?? null) : null,
            } satisfies ConfirmationError;
          }
        }),
        deleteOnboarding: fromPromise(async ({ input }) =>
          (await onboardingCalls()).deleteOnboarding(await api(), input.onboardingId),
        ),
        loadOnboarding: fromPromise(async ({ input }) => {
          const [client, calls] = await Promise.all([api(), onboardingCalls()]);
          const [onboarding, status] = await Promise.all([
            calls.getOnboarding(client, input.onboardingId),
            // Asked once: a failure is told (the enrolment is back on Landing), not passed over in silence.
            calls.getOnboardingStatus(client, input.onboardingId, { silent: false }),
          ]);
          return { ...onboarding, legal_terms_accepted: status.legal_terms_accepted };
        }),
        fetchTerms: fromPromise(({ signal }) => fetchTerms(signal)),
        // GET /public/credentials/{userId}/sids/{sid} as a PNG. The screen says what failed and offers a
        // retry: no general notice as well.
        fetchQrImage: fromPromise(async ({ input, signal }) => {
          const client = await api();
          const path = `/public/credentials/${encodeURIComponent(input.userId)}/sids/${encodeURIComponent(input.qrSid)}?format=png`;
          const blob = await client.get<Blob>(path, { responseType: 'blob', silent: true, signal });
          if (blob.type && !blob.type.startsWith('image/')) throw new Error(`not an image: ${blob.type}`);
          return blob;
        }),
        portrayalResult: portrayalResultMachine.provide({
          actors: {
            fetchPortrayalResult: fromPromise(async ({ input, signal }) =>
              (await portrayalCalls()).fetchPortrayalResult(await api(), input.portrayalId, signal),
            ),
          },
        }),
      },
      actions: {
        persist: () => persistNow(key),
        forgetOnboarding: () => {
          queueMicrotask(() => window.localStorage.removeItem(key));
          images.clear();
        },
        // The server has marked the account enrolled: a renewed token says so.
        markEnrolled: () => runtime.session.send({ type: 'session.renew' }),
      },
      guards: {
        // Read when the person leaves, so that a session renewed meanwhile (now enrolled) counts.
        // After an accepted registration the tenant's postEnrolmentAction decides (FinishRegister's Continue).
        homeIs: ({ context }, params: { screen: HomeScreen }) => {
          const session = signedIn();
          const home: HomeScreen = session ? (homeScreen(session) as HomeScreen) : 'Landing';
          const action = runtime.app.getSnapshot().context.tenant?.settings.postEnrolmentAction ?? 'home';
          const accepted = context.registration?.outcome === 'accepted';
          return (accepted ? postEnrolmentScreen(action, home) : home) === params.screen;
        },
      },
    });
  }

  function inputOf(session: Session): EnrolmentInput {
    const tenant = runtime.app.getSnapshot().context.tenant;
    const settings = tenant?.settings;
    return {
      settings: {
        domain: settings?.domain ?? '',
        showNextSteps: settings?.showNextSteps ?? false,
        onboardingSteps: settings?.onboardingSteps ?? false,
        biometricQR: settings?.biometricQR ?? false,
      },
      registerMode: registerMode(session),
      claims: session.claims,
      email: session.email || null,
    };
  }

  return {
    images,
    progress,
    keep(image) {
      refs += 1;
      const ref = `image-${Date.now().toString(36)}-${refs}`;
      images.set(ref, image);
      return { ref };
    },
    actor() {
      const session = signedIn();
      const tenant = runtime.app.getSnapshot().context.tenant;
      if (!session || !tenant) return undefined;
      const key = storageKey(tenant.tenant, session.userId);
      // An enrolment the person has left is over (and forgotten): coming back starts a new one.
      const left = current?.key === key && current.actor.getSnapshot().matches('left');
      if (current?.key === key && !left) return current.actor;
      current?.actor.stop();
      current?.locale.unsubscribe();
      images.clear();
      const machine = machineFor(key);
      const input = inputOf(session);
      const snapshot = left ? undefined : readSnapshot(key);
      let actor: EnrolmentActor | undefined;
      if (snapshot) {
        try {
          actor = createActor(machine, { input, snapshot, inspect: runtime.inspect });
          actor.start();
        } catch {
          // A snapshot this version cannot restore: start again (the server still has the onboarding).
          window.localStorage.removeItem(key);
          actor = undefined;
        }
      }
      if (!actor) {
        actor = createActor(machine, { input, inspect: runtime.inspect });
        actor.start();
      }
      if (snapshot) forgetLostPicture(actor);
      followHome(actor);
      current = { key, actor, locale: followLocale(actor) };
      // A restored step for a phone may now be on a computer: the machine decides what the person sees.
      actor.send({ type: 'device.checked', ok: deviceSupported() });
      return actor;
    },
  };
}

const runtimes = new WeakMap<Runtime, EnrolmentRuntime>();

/** The enrolment runtime of this app runtime (one per page). */
export function enrolmentRuntimeOf(runtime: Runtime): EnrolmentRuntime {
  let enrolment = runtimes.get(runtime);
  if (!enrolment) {
    enrolment = createEnrolmentRuntime(runtime);
    runtimes.set(runtime, enrolment);
  }
  return enrolment;
}
