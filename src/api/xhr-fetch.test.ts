// Bodies are Node's Blob: jsdom's Blob is not one that fetch's Request and Response can read.
import { Blob } from 'node:buffer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { xhrFetch } from './client';

// A stand-in XMLHttpRequest that records what xhrFetch does with it and lets the test play the network.
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  responseType = '';
  status = 0;
  statusText = '';
  response: unknown = null;
  responseHeaders = '';
  upload: {
    onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = undefined;
});

const sent = async () => {
  await vi.waitFor(() => expect(FakeXhr.last?.body).toBeDefined(), { timeout: 10_000 });
  return FakeXhr.last as FakeXhr;
};

describe('xhrFetch', () => {
  it('sends the method, headers and body, reports upload progress, and answers like fetch', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress: number[] = [];
    const answer = xhrFetch((fraction) => progress.push(fraction))('http://localhost/api/x/obverse', {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg', 'tenant-id': 'gambling' },
      body: new Blob([new Uint8Array(1000)], { type: 'image/jpeg' }) as unknown as BodyInit,
    });
    const xhr = await sent();
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('http://localhost/api/x/obverse');
    expect(xhr.headers).toMatchObject({ 'content-type': 'image/jpeg', 'tenant-id': 'gambling' });
    expect((xhr.body as Blob).size).toBe(1000);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 250, total: 1000 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 0, total: 0 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1000, total: 1000 });
    Object.assign(xhr, {
      status: 200,
      statusText: 'OK',
      response: new Blob(['{"ok":true}']),
      responseHeaders: 'content-type: application/json\r\nx-request-id: r-1\r\n',
    });
    xhr.onload?.();
    const response = await answer;
    expect(progress).toEqual([0.25, 1]);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('hands an error status over as a response, and a 204 with no body', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const missing = xhrFetch(() => {})('http://localhost/api/missing', { method: 'PUT', body: 'x' });
    const xhr = await sent();
    Object.assign(xhr, { status: 404, response: new Blob(['{"detail":"no"}']), responseHeaders: '' });
    xhr.onload?.();
    expect((await missing).status).toBe(404);
    FakeXhr.last = undefined;

    const empty = xhrFetch(() => {})('http://localhost/api/empty', { method: 'DELETE', body: 'x' });
    const second = await sent();
    Object.assign(second, { status: 204, response: new Blob([]), responseHeaders: '' });
    second.onload?.();
    expect((await empty).body).toBeNull();
  });

  it('fails like fetch on a network error, and stops when its signal aborts', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const offline = xhrFetch(() => {})('http://localhost/api/x', { method: 'PUT', body: 'x' });
    (await sent()).onerror?.();
    await expect(offline).rejects.toBeInstanceOf(TypeError);

    const controller = new AbortController();
    const aborted = xhrFetch(() => {})('http://localhost/api/x', {
      method: 'PUT',
      body: 'x',
      signal: controller.signal,
    });
    await sent();
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});
