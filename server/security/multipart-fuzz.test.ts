// No request can end the process. Every multipart route of the server (the bulk import, the watchlist upload under
// both its paths, the liveness proof, the development door terminal) is sent, over real sockets to one real server,
// the bodies a broken or hostile client sends: cut short, without a closing boundary, with bad or huge part
// headers, unnamed parts, a boundary unlike the header's, random bytes, and clients that go away mid-upload. A
// stream error is a 400 problem; nothing is a 5xx; nothing is logged as an unexpected error; /health answers after
// every batch. Then the last resort: what a handler throws is a logged 500 problem, and an error emitted later on a
// request's streams is logged with its request id instead of ending the process.
//
// Kept fast (the whole suite's time matters): one server, small bodies, a few requests in flight at a time.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { type } from 'arktype';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { problem } from '../../contract/api/problem';
import type { LogFields, Logger, LogLevel } from '../logger';
import { type RunningServer, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { apiCall, signIn } from '../testing/oidc';

const CASES_PER_ROUTE = 1000;
const BATCH = 50;
const IN_FLIGHT = 6;

interface LogLine {
  level: LogLevel;
  msg: string;
  fields: LogFields;
}
const logs: LogLine[] = [];
const logger: Logger = { log: (level, msg, fields = {}) => logs.push({ level, msg, fields }) };

let site: SiteFixture;
let server: RunningServer;
let token: string;
let portrayalId: string;

beforeAll(async () => {
  site = createSiteFixture();
  server = await startServer(
    testServerOptions(
      { distDir: site.distDir },
      {
        logger,
        configureApp: (app) => {
          // Stand-ins for a handler's bugs, for the last-resort tests below.
          app.get('/api/test/throws', () => {
            throw new Error('a bug in a handler');
          });
          app.get('/api/test/late-stream-errors', (c) => {
            const { incoming, outgoing } = c.env as { incoming: IncomingMessage; outgoing: ServerResponse };
            setTimeout(() => {
              incoming.emit('error', new Error('late error on the request'));
              outgoing.emit('error', new Error('late error on the response'));
            }, 5);
            return c.text('answered');
          });
        },
      },
    ),
  );
  const base = `http://127.0.0.1:${server.port}`;
  token = (await signIn(`http://localhost:${server.port}`, 'gambling', 'admin')).access_token;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await apiCall(base, path, 'gambling', token, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const { onboarding_id: onboardingId } = await call('POST', '/internal/onboardings', { mode: 'auto' });
  await call('PUT', `/internal/onboardings/${onboardingId}/legal_terms`);
  portrayalId = (
    await call('POST', '/internal/portrayals', {
      portrayal_type: 'selfie',
      document_type: 'none',
      onboarding_id: onboardingId,
    })
  ).portrayal_id as string;
}, 120_000);

afterAll(async () => {
  await server?.close();
  site?.remove();
});

// Each test judges the log lines of its own requests.
beforeEach(() => {
  logs.length = 0;
});

// ---------------------------------------------------------------------------------------------------------
// A client on a raw socket: whatever bytes it likes, and it may go away before it has sent them all.

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Go away after this many bytes of the body (the content-length still announces all of it). */
  dropAfter?: number;
}

/** The answer, or null for a client that went away. Connection: close, so the answer ends with the socket. */
function send(request: RawRequest): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${request.method} ${request.path} within 20 s`));
    }, 20_000);
    socket.on('connect', () => {
      const head = [
        `${request.method} ${request.path} HTTP/1.1`,
        `host: 127.0.0.1:${server.port}`,
        'connection: close',
        `content-length: ${request.body.length}`,
        ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
      ].join('\r\n');
      socket.write(`${head}\r\n\r\n`);
      if (request.dropAfter === undefined) {
        socket.write(request.body);
        return;
      }
      socket.write(request.body.subarray(0, request.dropAfter), () => {
        clearTimeout(timer);
        socket.destroy();
        resolve(null);
      });
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      if (request.dropAfter !== undefined) return;
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (!status || end < 0) {
        reject(new Error(`no HTTP answer to ${request.method} ${request.path}: ${JSON.stringify(text)}`));
        return;
      }
      const contentType = /\r\ncontent-type: ([^\r\n]*)/i.exec(text.slice(0, end))?.[1] ?? '';
      let body = Buffer.from(text.slice(end + 4), 'latin1').toString('utf8');
      // A chunked answer (compressed or streamed): the problem bodies here are small, one chunk.
      if (/\r\ntransfer-encoding: chunked/i.test(text.slice(0, end))) {
        body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      }
      resolve({ status, contentType, body });
    });
  });
}

/** Runs `tasks` with at most IN_FLIGHT at a time. */
async function bounded<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return results;
}

/** Below 500; a 400 is a problem of the shared contract. */
function judged(answer: Answer | null, label: string) {
  if (!answer) return;
  if (answer.status >= 500) throw new Error(`${label}: ${answer.status} ${answer.body.slice(0, 300)}`);
  if (answer.status === 400) expectProblem(answer, 400, label);
}

function expectProblem(answer: Answer | null, status: number, label: string) {
  expect(answer?.status, `${label}: ${answer?.body.slice(0, 300)}`).toBe(status);
  expect(answer?.contentType, label).toMatch(/^application\/problem\+json/);
  const checked = problem(JSON.parse(answer?.body ?? ''));
  if (checked instanceof type.errors) throw new Error(`${label}: not a problem: ${answer?.body}`);
  expect(checked.status).toBe(status);
}

async function expectHealthy() {
  const res = await fetch(`http://127.0.0.1:${server.port}/health`);
  expect(res.status).toBe(200);
}

// ---------------------------------------------------------------------------------------------------------
// The routes and a body each would take

const BOUNDARY = 'fuzzBoundary7MA4YWxk';

interface Part {
  /** The raw header lines of the part. */
  headers: string[];
  content: Buffer;
}

const field = (name: string, value: string): Part => ({
  headers: [`Content-Disposition: form-data; name="${name}"`],
  content: Buffer.from(value),
});
const file = (name: string, filename: string, type: string, content: Buffer | string): Part => ({
  headers: [
    `Content-Disposition: form-data; name="${name}"; filename="${filename}"`,
    `Content-Type: ${type}`,
  ],
  content: Buffer.isBuffer(content) ? content : Buffer.from(content),
});

function multipart(parts: Part[], boundary = BOUNDARY, closed = true): Buffer {
  return Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`),
      part.content,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(closed ? `--${boundary}--\r\n` : ''),
  ]);
}

interface Route {
  name: string;
  method: string;
  /** Paths it answers at (one is picked per case). */
  paths: () => string[];
  headers: () => Record<string, string>;
  /** A body the route takes. */
  parts: () => Part[];
  /**
   * The same, refused by the route only after it has read the whole body, without writing to the database: most
   * cases start from it, so that the time goes to reading bodies rather than storing what they say.
   */
  cheap?: () => Part[];
}

const bearer = () => ({ authorization: `Bearer ${token}`, 'tenant-id': 'gambling' });
const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x77, 0x65, 0x62, 0x6d]);

const ROUTES: Route[] = [
  {
    name: 'POST /api/public/singles/bulk',
    method: 'POST',
    paths: () => ['/api/public/singles/bulk'],
    headers: bearer,
    parts: () => [
      file('metadata', 'people.csv', 'text/csv', 'email,first_name,last_name,acs_id,picture\n'),
      file('media', 'photos.zip', 'application/zip', Buffer.from(zipSync({ 'a.jpg': new Uint8Array(16) }))),
    ],
  },
  {
    name: 'POST /api/public/watchlists and /api/watchlists',
    method: 'POST',
    paths: () => ['/api/public/watchlists', '/api/watchlists'],
    headers: bearer,
    parts: () => [
      field('domain', 'es-an'),
      field('watch_type', 'interdicted'),
      file('upload', 'list.csv', 'text/csv', 'dni;fecha_nacimiento\n12345678Z;01/02/1980\nX;1980\n'),
    ],
    // A watch_type it does not take is refused after the csv has been read, and no refusal is stored.
    cheap: () => [
      field('domain', 'es-an'),
      field('watch_type', 'other'),
      file('upload', 'list.csv', 'text/csv', 'dni;fecha_nacimiento\n12345678Z;01/02/1980\nX;1980\n'),
    ],
  },
  {
    name: 'PUT /api/internal/portrayals/{id}/lifeproof',
    method: 'PUT',
    paths: () => [`/api/internal/portrayals/${portrayalId}/lifeproof`],
    headers: bearer,
    parts: () => [
      field('life_proofing', JSON.stringify({ actions: ['blink'] })),
      file('video', 'v.webm', 'video/webm', WEBM),
    ],
    // A challenge that names none is refused once the parts are read, before the engine and any write.
    cheap: () => [
      field('life_proofing', JSON.stringify({ actions: ['blink'] })),
      field('challenge', 'none'),
      file('video', 'v.webm', 'video/webm', WEBM),
    ],
  },
  {
    name: 'POST /dev/terminal',
    method: 'POST',
    paths: () => ['/dev/terminal'],
    headers: () => ({}),
    parts: () => [field('tenant', 'gambling'), field('facility_id', randomUUID()), field('credential', 'x')],
  },
];

// ---------------------------------------------------------------------------------------------------------
// Generators: the route's own body, broken in the ways clients break it

const junk = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes));
const headerLine = fc.oneof(
  fc.constantFrom(
    'Content-Disposition: form-data',
    'Content-Disposition: form-data; name=',
    'Content-Disposition: form-data; name=""',
    'Content-Disposition: form-data; name="upload"; filename="',
    'Content-Disposition: attachment; filename="x.csv"',
    'Content-Disposition',
    'no colon at all',
    ': no name',
    'Content-Type: multipart/mixed; boundary=inner',
    'Content-Transfer-Encoding: base64',
    "Content-Disposition: form-data; name*=UTF-8''%E2%82%AC; filename*=UTF-8''%FF%FE",
    ' folded continuation',
  ),
  fc.string({ maxLength: 80 }),
  // A header line far longer than any parser keeps.
  fc
    .tuple(fc.integer({ min: 1_000, max: 40_000 }), fc.constantFrom('a', ' ', '"', ';'))
    .map(([n, char]) => `X-Long: ${char.repeat(n)}`),
);

type Mutation = (parts: Part[], body: Buffer) => { body: Buffer; boundary?: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // Cut short anywhere (the HTTP length is right: the multipart ends early).
  fc
    .nat()
    .map((at) => (_parts: Part[], body: Buffer) => ({ body: body.subarray(0, at % (body.length + 1)) })),
  // No closing boundary.
  fc.constant((parts: Part[]) => ({ body: multipart(parts, BOUNDARY, false) })),
  // A body whose boundary is not the header's, or a header without one.
  fc
    .constantFrom('other', '', 'fuzzBoundary7MA4YWx', `${BOUNDARY}x`, '"quoted"', 'a'.repeat(200))
    .map((boundary) => (_parts: Part[], body: Buffer) => ({ body, boundary })),
  // Bad or huge part headers: replaced, added, or the part left without any.
  fc
    .tuple(fc.nat(), fc.array(headerLine, { minLength: 0, maxLength: 3 }), fc.boolean())
    .map(([index, lines, replace]) => (parts: Part[]) => {
      const at = index % Math.max(parts.length, 1);
      const changed = parts.map((part, i) =>
        i === at ? { ...part, headers: replace ? lines : [...part.headers, ...lines] } : part,
      );
      return { body: multipart(changed) };
    }),
  // A part without a name, or with an unclosed quote.
  fc.nat().map((index) => (parts: Part[]) => {
    const at = index % Math.max(parts.length, 1);
    return {
      body: multipart(
        parts.map((part, i) =>
          i === at
            ? {
                ...part,
                headers: part.headers.map((line) => line.replace(/ name="[^"]*"/, '').replace(/"$/, '')),
              }
            : part,
        ),
      ),
    };
  }),
  // Random bytes spliced in, or written over.
  fc
    .tuple(fc.nat(), junk, fc.boolean())
    .map(([index, bytes, overwrite]) => (_parts: Part[], body: Buffer) => {
      const at = index % (body.length + 1);
      return {
        body: Buffer.concat([
          body.subarray(0, at),
          bytes,
          body.subarray(overwrite ? Math.min(body.length, at + bytes.length) : at),
        ]),
      };
    }),
  // Nothing of a multipart at all.
  junk.map((bytes) => () => ({ body: bytes })),
  // The separator between a part's headers and its content missing.
  fc.constant((parts: Part[]) => ({
    body: Buffer.from(multipart(parts).toString('latin1').replace('\r\n\r\n', '\r\n'), 'latin1'),
  })),
);

interface Case {
  path: string;
  body: Buffer;
  contentType: string;
  dropAfter?: number;
}

function cases(route: Route): fc.Arbitrary<Case> {
  return fc
    .record({
      path: fc.constantFrom(...route.paths()),
      cheap: fc.integer({ min: 0, max: 19 }).map((n) => n > 0 && route.cheap !== undefined),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 2 }),
      // One client in six goes away mid-upload; one case in ten says another content type.
      drop: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
      contentType: fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'multipart/form-data',
            'multipart/form-data; boundary=',
            'text/csv',
            'multipart/mixed',
          ),
        },
      ),
    })
    .map(({ path, cheap, mutations, drop, contentType }) => {
      const parts = (cheap && route.cheap ? route.cheap : route.parts)();
      let body = multipart(parts);
      let boundary: string | undefined;
      for (const mutate of mutations) {
        const out = mutate(parts, body);
        body = out.body;
        boundary = out.boundary ?? boundary;
      }
      return {
        path,
        body,
        contentType:
          contentType ??
          (boundary === undefined
            ? `multipart/form-data; boundary=${BOUNDARY}`
            : `multipart/form-data; boundary=${boundary}`),
        ...(drop === null ? {} : { dropAfter: drop % (body.length + 1) }),
      };
    });
}

const label = (route: Route, c: Case) =>
  `${route.name} ${c.path} (${c.contentType}${c.dropAfter === undefined ? '' : `, gone after ${c.dropAfter} bytes`}) ${JSON.stringify(c.body.subarray(0, 200).toString('latin1'))}`;

/** The log lines that say something went wrong on the server's side. */
const faults = () => logs.filter((line) => line.level === 'error');

// ---------------------------------------------------------------------------------------------------------

// Timeouts only stop a case that hangs: on 2 cores shared with other work a batch may take many times its usual time.
const SLOW = { timeout: 300_000 };

describe('every multipart route answers a broken body with a 400 problem', SLOW, () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))('%s', async (_name, route) => {
    const parts = route.parts();
    const whole = multipart(parts);
    const headerEnd = whole.indexOf('\r\n\r\n') + 4;
    const broken: [string, Buffer, string?][] = [
      ['cut inside the first part', whole.subarray(0, headerEnd + 3)],
      ['cut inside the last part', whole.subarray(0, whole.length - BOUNDARY.length - 10)],
      ['without the closing boundary', multipart(parts, BOUNDARY, false)],
      [
        'part headers that never end',
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"`),
      ],
      ['an empty body', Buffer.alloc(0)],
      ['no boundary in the header', whole, 'multipart/form-data'],
    ];
    for (const path of route.paths()) {
      for (const [what, body, contentType] of broken) {
        const answer = await send({
          method: route.method,
          path,
          headers: {
            ...route.headers(),
            'content-type': contentType ?? `multipart/form-data; boundary=${BOUNDARY}`,
          },
          body,
        });
        expectProblem(answer, 400, `${route.name} ${path}: ${what}`);
      }
      // A client that goes away mid-upload: nobody to answer, and nothing may break.
      for (const at of [0, headerEnd - 5, headerEnd + 2, whole.length - 3]) {
        await send({
          method: route.method,
          path,
          headers: { ...route.headers(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          body: whole,
          dropAfter: at,
        });
      }
    }
    await expectHealthy();
    expect(faults()).toEqual([]);
  });
});

describe(`no multipart body makes a route answer 5xx (${CASES_PER_ROUTE} cases a route)`, SLOW, () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))('%s', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(fc.array(cases(route), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await bounded(
          batch.map((c) => async () => {
            const answer = await send({
              method: route.method,
              path: c.path,
              headers: { ...route.headers(), 'content-type': c.contentType },
              body: c.body,
              ...(c.dropAfter === undefined ? {} : { dropAfter: c.dropAfter }),
            });
            judged(answer, label(route, c));
          }),
        );
        await expectHealthy();
        expect(faults()).toEqual([]);
      }),
      { numRuns: CASES_PER_ROUTE / BATCH },
    );
  });
});

describe('the last resort', () => {
  it("answers a handler's unexpected error as a 500 problem, logged with the request id", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/test/throws`, {
      headers: { 'tenant-id': 'gambling' },
    });
    const reqId = res.headers.get('x-request-id');
    expectProblem(
      { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() },
      500,
      'throws',
    );
    expect(reqId).toBeTruthy();
    const logged = logs.find((line) => line.msg === 'unhandled error' && line.fields.reqId === reqId);
    expect(logged?.level).toBe('error');
    expect(String(logged?.fields.err)).toContain('a bug in a handler');
  });

  it("logs an error emitted later on a request's streams with its request id, and goes on", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/test/late-stream-errors`, {
      headers: { 'tenant-id': 'gambling' },
    });
    expect(await res.text()).toBe('answered');
    const reqId = res.headers.get('x-request-id');
    const streamErrors = () =>
      logs.filter((line) => line.msg === 'error on a request stream' && line.fields.reqId === reqId);
    for (let i = 0; i < 200 && streamErrors().length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(streamErrors().map((line) => [line.level, line.fields.stream, String(line.fields.err)])).toEqual([
      ['error', 'request', expect.stringContaining('late error on the request')],
      ['error', 'response', expect.stringContaining('late error on the response')],
    ]);
    await expectHealthy();
  });
});
