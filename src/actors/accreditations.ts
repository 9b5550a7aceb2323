// The accreditation machines with their real effects (ARCHITECTURE.md: machines name effects, src/actors implements
// them): the credentials calls of src/api/credentials.ts, the QR image, the PDF, POST /internal/rights and the new
// selfie portrayal. Loaded with the accreditations chunk.

import type { Credential, UserCredentials } from '../../contract/api/credentials';
import {
  type AccreditationError,
  accreditationMachine,
  type LoadedAccreditation,
  type PdfMode,
} from '../../machines/accreditation.machine';
import { accreditationRequestMachine } from '../../machines/accreditation-request.machine';
import { outputOf } from '../../machines/actor-events';
import type { Page, PageQuery } from '../../machines/list.machine';
import { isApiError } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import { currentQrSid, holderOf, msUntilExpiry } from '../domain/accreditations';
import type { Runtime } from '../runtime/context';
import { type FirstCalls, preloadable } from './preloaded-calls';
import { fromPromise } from './promise';

const credentials = lazyCalls(() => import('../api/credentials'));
const { getCredential, getCredentialPdf, requestRight, setCredentialState } = credentials;
// The calls a screen opened cold makes first (src/actors/preload.ts).
const getUserCredentials = preloadable('getUserCredentials', credentials.getUserCredentials);
const getCredentialQr = preloadable('getCredentialQr', credentials.getCredentialQr);
const { createSelfiePortrayal, uploadPortrayalImage } = lazyCalls(() => import('../api/portrayals'));

type Deps = Pick<Runtime, 'apiClient' | 'app'>;

const saidByTheScreen = () => {};

/** A 404 is "no such accreditation"; anything else "unavailable" (the client has said what went wrong). */
function accreditationErrorOf(error: unknown): AccreditationError {
  return isApiError(error) && error.status === 404
    ? { code: 'credential_not_found' }
    : { code: 'credential_unavailable' };
}

/** Saves the PDF under its name, or prints it from a hidden frame (the browser's print dialog). */
function deliverPdf(pdf: Blob, mode: PdfMode, sid: string): void {
  const url = URL.createObjectURL(pdf);
  const release = () => setTimeout(() => URL.revokeObjectURL(url), 60_000);
  if (mode === 'print') {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = 'pdf';
    frame.src = url;
    frame.addEventListener('load', () => {
      frame.contentWindow?.print();
      setTimeout(() => frame.remove(), 60_000);
    });
    document.body.append(frame);
  } else {
    const link = document.createElement('a');
    link.href = url;
    link.download = `credential-${sid}.pdf`;
    document.body.append(link);
    link.click();
    link.remove();
  }
  release();
}

/** The accreditation machine's load: the credential (and the person's current QR when sid is null). */
function loadAccreditation({ apiClient }: Pick<Runtime, 'apiClient'>) {
  return async ({
    input,
    signal,
  }: {
    input: { userId: string; sid: string | null; holder: string | null };
    signal: AbortSignal;
  }): Promise<LoadedAccreditation> => {
    try {
      const api = await apiClient();
      // A known credential of a known holder needs no list: MyAccreditations has just fetched it.
      const all =
        input.sid !== null && input.holder !== null
          ? null
          : await getUserCredentials(api, input.userId, { signal });
      const holder = all ? holderOf(all.metadata) : (input.holder ?? '');
      const sid = input.sid ?? (all ? currentQrSid(all.credentials) : null);
      // No QR at all is the screen's to tell, not a notice.
      if (sid === null) throw { code: 'credential_not_found' } satisfies AccreditationError;
      // With the list in hand, the credential is in it whole (spec §3: keyed by sid, the user's id beside
      // them): the QR is asked for at once, no call for the credential in series before it. A sid the list
      // does not hold is no such credential.
      const listed = all?.credentials[sid];
      if (all && !listed) throw { code: 'credential_not_found' } satisfies AccreditationError;
      const credential: Credential =
        all && listed
          ? { ...listed, sid, user_id: all.user_id }
          : await getCredential(api, input.userId, sid, { signal });
      // Why the picture could not be loaded (no connection, too slow, a server fault…) is the API client's notice
      // beside the screen's "could not be loaded"; a 404 is the screen's own "no such accreditation".
      const qrImage =
        credential.credential_type === 'qr' && credential.valid
          ? await getCredentialQr(api, input.userId, sid, { signal, handlers: { 404: saidByTheScreen } })
          : null;
      return { credential, holder, qrImage };
    } catch (error) {
      if ((error as Partial<AccreditationError>)?.code === 'credential_not_found') throw error;
      throw accreditationErrorOf(error);
    }
  };
}

/** UserHome's first calls: the person's current QR, loaded as UserHome's accreditation machine loads it. */
export const userHomeFirstCalls: FirstCalls = (runtime, session, signal) =>
  loadAccreditation(runtime)({ input: { userId: session.userId, sid: null, holder: null }, signal });

/** The accreditation machine of one credential (sid) or of the person's current QR (sid null). */
export function accreditationLogic({ apiClient, app }: Deps) {
  const locale = () => app.getSnapshot().context.locale;
  return accreditationMachine.provide({
    actors: {
      loadAccreditation: fromPromise(loadAccreditation({ apiClient })),
      fetchPdf: fromPromise(async ({ input, signal }) =>
        getCredentialPdf(await apiClient(), input.userId, input.sid, locale(), { signal }),
      ),
      changeAccreditationState: fromPromise(async ({ input, signal }) => {
        try {
          return await setCredentialState(await apiClient(), input.userId, input.sid, input.state, {
            signal,
          });
        } catch (error) {
          throw accreditationErrorOf(error);
        }
      }),
    },
    actions: {
      deliverPdf: ({ context, event }) =>
        deliverPdf(outputOf<Blob>(event), context.pdfMode, context.sid ?? ''),
    },
    delays: {
      untilExpiry: ({ context }) => msUntilExpiry(context.credential?.ends_at ?? null, Date.now()),
    },
  });
}

/** The person's credentials for MyAccreditations (the list machine's fetchPage: one page holds them all). */
const accreditationsPage =
  ({ apiClient }: Pick<Runtime, 'apiClient'>, userId: string) =>
  async ({ signal }: { signal: AbortSignal }): Promise<Page> => {
    const credentials: UserCredentials = await getUserCredentials(await apiClient(), userId, { signal });
    return { items: [credentials], totalItems: 1 };
  };

export function fetchAccreditations(runtime: Deps, userId: string) {
  return fromPromise<Page, PageQuery>(accreditationsPage(runtime, userId));
}

/** MyAccreditations' first call: the person's credentials. */
export const myAccreditationsFirstCalls: FirstCalls = (runtime, session, signal) =>
  accreditationsPage(runtime, session.userId)({ signal });

/** What a new selfie is sent as: a stand-alone selfie portrayal of this process. */
export const RENEW_SELFIE_PROCESS = 'renew_selfie';

/** The accreditation request machine: POST /internal/rights, and the new selfie portrayal. */
export function accreditationRequestLogic({ apiClient }: Deps, subject: string) {
  return accreditationRequestMachine.provide({
    actors: {
      requestRight: fromPromise(async ({ input, signal }) =>
        requestRight(
          await apiClient(),
          { subject, object: 'portal', action: input.action, portrayalId: input.portrayalId },
          { signal },
        ),
      ),
      sendSelfie: fromPromise(async ({ input }) => {
        if (!input.photo) throw new Error('no selfie to send');
        const api = await apiClient();
        const { portrayal_id } = await createSelfiePortrayal(api, RENEW_SELFIE_PROCESS);
        await uploadPortrayalImage(api, portrayal_id, 'selfie', input.photo);
        return portrayal_id;
      }),
    },
  });
}
