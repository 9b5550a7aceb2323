// @vitest-environment jsdom
// SingleRegistration's calls as its actors make them: the registration asks in the portal's language, which the QR
// mail (when the form asks for it) is written in.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { apiOverFetch, stubRuntime } from '../testing/stub-runtime';
import { singleRegistrationLogic } from './singles';

describe('the registration of one person', () => {
  it('is sent in the portal’s language', async () => {
    const requests: Request[] = [];
    const { client } = apiOverFetch((_url, request) => {
      requests.push(request);
      return Response.json(
        { result: { outcome: 'accepted', reason: null, code: 0, qr_emailed: true } },
        { status: 201 },
      );
    });
    const runtime = stubRuntime({ locale: 'eu', client });
    const actor = createActor(singleRegistrationLogic(runtime), {
      input: { acsIdSchema: 'string64', qrEmailAllowed: true },
    }).start();
    actor.send({
      type: 'submit',
      body: {
        mode: 'fields',
        email: 'nerea@example.test',
        first_name: 'Nerea',
        last_name: 'Etxeberria',
        send_qr_by_email: true,
      } as never,
    });
    await waitFor(actor, (s) => s.matches('registered'));
    expect(
      requests.map((r) => [r.method, new URL(r.url).pathname, r.headers.get('accept-language')]),
    ).toEqual([['POST', '/api/public/singles', 'eu']]);
  });
});
