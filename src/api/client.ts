import type { Options as KyOptions, KyResponse, RetryOptions, StandardSchemaV1 } from 'ky';
import ky, { isHTTPError, isTimeoutError } from 'ky';
import type { PaintedAnswer } from '../../contract/tenant/boot';
import { toSafeSameOriginPath } from '../domain/safe-link.ts';
import { ApiError, generalNotice, type Notice, problemFromBody } from './errors.ts';
import { paintedFetch } from './painted-fetch';

// Everything the client needs from the app is injected, so src/api imports no React, router or
// machine (ARCHITECTURE.md "Sign-in and the API client").
export interface ApiClientDeps {
  baseUrl: string;
  tenantId: string;
  getToken: () => string | undefined;
  renewOnce: () => Promise<boolean>;
  onUnauthorized: () => void;
  notify: (n: Notice) => void;
  navigate: (path: string) => void;
  loading: { start(): void; end(): void };
  fetch?: typeof fetch;
  /** The answers of the server's paint of a data screen: its first calls take them (src/api/painted-fetch.ts). */
  painted?: readonly PaintedAnswer[];
  retryDelay?: (attempt: number) => number;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type ResponseType = 'json' | 'blob' | 'text' | 'none';
export type ErrorHandler = (err: ApiError) => void;
export type ErrorHandlers = { [status: number]: ErrorHandler | undefined; default?: ErrorHandler };
export type SearchParams = URLSearchParams | Record<string, string | number | boolean | undefined>;

export interface RequestOptions<T = unknown> {
  searchParams?: SearchParams;
  json?: unknown;
  body?: FormData | Blob;
  /** An arktype Type (any Standard Schema); a 2xx body that does not match is a 'contract' error. */
  schema?: StandardSchemaV1<unknown, T>;
  /** Default true: send `Authorization: Bearer <token>` when there is a token. */
  auth?: boolean;
  /** Default 'json' ('json' with an empty body, e.g. 204, resolves undefined). */
  responseType?: ResponseType;
  handlers?: ErrorHandlers;
  onError?: ErrorHandler;
  /** No notices (existence checks where 404 means 'free'); 401 still logs out. */
  silent?: boolean;
  /** Extra headers; tenant-id and (when auth) authorization are always the client's own. */
  headers?: Record<string, string>;
  /** Cancels the call (e.g. the invoking actor stopped); rejects with kind 'aborted', no notices. */
  signal?: AbortSignal;
  /** Per-attempt timeout in ms, or false for none. */
  timeout?: number | false;
  /** Upload progress of the body, 0 to 1 (uploads of images show it). */
  onUploadProgress?: (fraction: number) => void;
  /** With responseType 'blob': the body is read as a stream, reporting the bytes and line breaks read so far. */
  onDownloadProgress?: (read: { bytes: number; lines: number }) => void;
  /**
   * With responseType 'blob': the media type the answer must be, or its start ('image/'); a 2xx of another type (a
   * JSON body where a picture was asked for) is a 'contract' error, said as such. An answer without a type passes.
   */
  mediaType?: string;
}

export interface ApiClient {
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  post<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  put<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const ONBOARDING_CONFIRMATION_FORBIDDEN = 'onboarding_confirmation_forbidden';
const LOCATION_NEEDED = 'location needed';

const defaultRetryDelay = (attempt: number) => 300 * 2 ** (attempt - 1);

// Joins baseUrl and path so that a path can never leave the API (no '//host', no scheme).
function apiUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^[/\\]+/, '')}`;
}

// Callbacks belong to the app; one that throws must not change what the caller's promise settles with.
function safely(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    if (typeof globalThis.reportError === 'function') {
      globalThis.reportError(error);
    } else {
      console.error(error);
    }
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

// 403s that renewing the token cannot fix (spec §7).
function isRenewable403(error: unknown): boolean {
  if (!isHTTPError(error) || error.response.status !== 403) {
    return false;
  }
  const { detail, title } = problemFromBody(error.data, 403);
  if (detail === ONBOARDING_CONFIRMATION_FORBIDDEN) {
    return false;
  }
  return !`${detail}\n${title}`.toLowerCase().includes(LOCATION_NEEDED);
}

/**
 * A body read chunk by chunk into a Blob, counting bytes and line feeds as they arrive (a long csv export shows its
 * progress; each chunk is counted in one short loop, so the page never waits on the whole body at once).
 */
async function readStreamed(
  response: Response,
  onProgress: (read: { bytes: number; lines: number }) => void,
): Promise<Blob> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines++;
    onProgress({ bytes, lines });
  }
  return new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? '' });
}

/** A fetch made of XMLHttpRequest, for the one thing fetch cannot do here: report upload progress. */
export function xhrFetch(onProgress: (fraction: number) => void): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const index = line.indexOf(':');
          if (index > 0) headers.append(line.slice(0, index).trim(), line.slice(index + 1).trim());
        }
        const status = xhr.status;
        const nullBody = status === 204 || status === 205 || status === 304;
        resolve(
          new Response(nullBody ? null : (xhr.response as Blob), {
            status,
            statusText: xhr.statusText,
            headers,
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.ontimeout = () => reject(new TypeError('Network request timed out'));
      const abort = () => xhr.abort();
      xhr.onabort = () => reject(request.signal.reason ?? new DOMException('Aborted', 'AbortError'));
      if (request.signal.aborted) abort();
      else request.signal.addEventListener('abort', abort, { once: true });
      xhr.send(body);
    });
  };
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const http = ky.create({
    // Requests are built from relative paths; resolve them like the browser would.
    ...(globalThis.document ? { baseUrl: globalThis.document.baseURI } : {}),
    ...(deps.painted?.length
      ? {
          fetch: paintedFetch(
            deps.painted,
            deps.fetch ?? ((resource, init) => globalThis.fetch(resource, init)),
            // While the paint is on the page: its screen's first calls; after it, everything goes out.
            () => Boolean(globalThis.document?.getElementById('shell')),
          ),
        }
      : deps.fetch
        ? { fetch: deps.fetch }
        : {}),
    throwHttpErrors: true,
  });

  // Only idempotent GETs retry by themselves: network failures and gateway errors (not 500, whose
  // answer is definite). Retry-After is ignored so a busy server cannot freeze the UI for long.
  const getRetry = (signal: AbortSignal | undefined): RetryOptions => ({
    limit: 2,
    methods: ['get'],
    statusCodes: [502, 503, 504],
    afterStatusCodes: [],
    delay: deps.retryDelay ?? defaultRetryDelay,
    shouldRetry: ({ error }) => {
      if (isHTTPError(error)) return undefined;
      if (isTimeoutError(error) || isAbort(error, signal)) return false;
      // Any other throw of fetch is a network failure, whatever message the runtime gives it.
      return true;
    },
  });

  // Parallel calls that hit 403 share one silent renewal instead of each starting their own.
  let renewal: Promise<boolean> | undefined;
  function renewShared(): Promise<boolean> {
    if (!renewal) {
      const pending = Promise.resolve()
        .then(() => deps.renewOnce())
        .then(
          (renewed) => renewed === true,
          () => false,
        );
      renewal = pending;
      void pending.finally(() => {
        if (renewal === pending) renewal = undefined;
      });
    }
    return renewal;
  }

  function send(method: HttpMethod, url: string, options: RequestOptions<unknown>, auth: boolean) {
    const headers = new Headers(options.headers);
    headers.set('tenant-id', deps.tenantId);
    if (auth) {
      headers.delete('authorization');
      const token = deps.getToken();
      if (token) headers.set('authorization', `Bearer ${token}`);
    }
    if ((options.responseType ?? 'json') === 'json' && !headers.has('accept')) {
      headers.set('accept', 'application/json');
    }
    const init: KyOptions = {
      method,
      headers,
      retry: method === 'GET' ? getRetry(options.signal) : 0,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    };
    if (options.searchParams !== undefined) init.searchParams = options.searchParams;
    if (options.json !== undefined) init.json = options.json;
    else if (options.body !== undefined) init.body = options.body;
    if (options.signal) init.signal = options.signal;
    // fetch can only report upload progress by streaming the body, which Chromium allows over HTTP/2 only;
    // XMLHttpRequest reports it over any connection.
    if (options.onUploadProgress && typeof XMLHttpRequest !== 'undefined') {
      init.fetch = xhrFetch(options.onUploadProgress);
    }
    return http(url, init);
  }

  async function readBody<T>(
    response: KyResponse,
    method: HttpMethod,
    path: string,
    options: RequestOptions<T>,
  ): Promise<T> {
    const responseType = options.responseType ?? 'json';
    if (responseType === 'none') {
      void response.body?.cancel().catch(() => undefined);
      return undefined as T;
    }
    const contract = (message: string, body: unknown, cause?: unknown) =>
      new ApiError({
        kind: 'contract',
        method,
        path,
        status: response.status,
        statusText: response.statusText,
        body,
        cause,
        message: `${method} ${path}: response does not match the contract: ${message}`,
      });
    if (responseType === 'blob') {
      const blob =
        options.onDownloadProgress && response.body
          ? await readStreamed(response, options.onDownloadProgress)
          : await response.blob();
      const { mediaType } = options;
      if (mediaType && blob.type && !blob.type.startsWith(mediaType)) {
        throw contract(`not ${mediaType}: ${blob.type}`, null);
      }
      return blob as T;
    }
    if (responseType === 'text') return (await response.text()) as T;

    const text = await response.text();
    let value: unknown;
    if (text !== '') {
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw contract('body is not JSON', text, error);
      }
    }
    if (!options.schema) return value as T;
    const result = await options.schema['~standard'].validate(value);
    if (result.issues) {
      throw contract(result.issues.map((issue) => issue.message).join('; '), value);
    }
    return result.value;
  }

  /**
   * Makes the call; `sent.session` says whether its last attempt carried the session's token (a call made signed
   * out, or with a token of its own, did not).
   */
  async function perform<T>(
    method: HttpMethod,
    path: string,
    options: RequestOptions<T>,
    sent: { session: boolean },
  ): Promise<T> {
    const url = apiUrl(deps.baseUrl, path);
    const auth = options.auth !== false;
    let response: KyResponse;
    const sentWith = auth ? deps.getToken() : undefined;
    sent.session = !!sentWith;
    try {
      response = await send(method, url, options, auth);
    } catch (error) {
      // A 401 answered to a token that has been renewed since the call left (a slow answer crossing the
      // renewal) says nothing about the current session: one retry with the current token, which decides.
      const current = auth ? deps.getToken() : undefined;
      const renewedMeanwhile =
        isHTTPError(error) && error.response.status === 401 && !!current && current !== sentWith;
      // Otherwise one renewal and one retry at most; whatever the retry gives is final.
      if (!renewedMeanwhile && (!auth || !isRenewable403(error) || !(await renewShared()))) throw error;
      sent.session = !!(auth && deps.getToken());
      response = await send(method, url, options, auth);
    }
    return readBody(response, method, path, options);
  }

  function toApiError(error: unknown, method: HttpMethod, path: string, signal: AbortSignal | undefined) {
    if (error instanceof ApiError) return error;
    if (isAbort(error, signal)) return new ApiError({ kind: 'aborted', method, path, cause: error });
    if (isHTTPError(error)) {
      const { status, statusText } = error.response;
      return new ApiError({
        kind: 'http',
        method,
        path,
        status,
        statusText,
        problem: problemFromBody(error.data, status),
        body: error.data,
        cause: error,
      });
    }
    if (isTimeoutError(error)) return new ApiError({ kind: 'timeout', method, path, cause: error });
    return new ApiError({ kind: 'network', method, path, cause: error });
  }

  // Handler chain (spec §7): status handler → default → link → onError → general; first one wins.
  function dispatch(error: ApiError, options: RequestOptions<unknown>, carriedSession: boolean): void {
    if (error.kind === 'aborted') {
      error.handledBy = 'none';
      return;
    }
    // Only a call that carried the session's token can prove the session is gone (a call made signed out, or with
    // a link's token of its own, says nothing of it). The session then signs the person out and says why on the
    // page that follows: a notice here would flash as the sign-out replaces the page.
    const sessionGone = error.kind === 'http' && error.status === 401 && carriedSession;
    if (sessionGone) safely(() => deps.onUnauthorized());
    const { handlers } = options;
    const byStatus = error.kind === 'http' ? handlers?.[error.status] : undefined;
    if (typeof byStatus === 'function') {
      error.handledBy = 'status';
      safely(() => byStatus(error));
      return;
    }
    const fallback = handlers?.default;
    if (typeof fallback === 'function') {
      error.handledBy = 'default';
      safely(() => fallback(error));
      return;
    }
    const link = error.kind === 'http' ? error.problem?.link : undefined;
    const target = link ? toSafeSameOriginPath(link.uri, link.query) : null;
    if (target !== null) {
      error.handledBy = 'link';
      safely(() => deps.navigate(target));
      return;
    }
    const { onError } = options;
    if (typeof onError === 'function') {
      error.handledBy = 'onError';
      safely(() => onError(error));
      return;
    }
    error.handledBy = 'general';
    const notice = generalNotice(error);
    if (notice && !options.silent && !sessionGone) safely(() => deps.notify(notice));
  }

  async function request<T = unknown>(
    method: HttpMethod,
    path: string,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    safely(() => deps.loading.start());
    let outcome: { ok: true; value: T } | { ok: false; error: ApiError };
    const sent = { session: false };
    try {
      outcome = { ok: true, value: await perform(method, path, options, sent) };
    } catch (error) {
      outcome = { ok: false, error: toApiError(error, method, path, options.signal) };
    } finally {
      // Ended before any handler runs, so a handler that navigates leaves no spinner behind.
      safely(() => deps.loading.end());
    }
    if (outcome.ok) return outcome.value;
    dispatch(outcome.error, options as RequestOptions<unknown>, sent.session);
    throw outcome.error;
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    delete: (path, options) => request('DELETE', path, options),
  };
}
