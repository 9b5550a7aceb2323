// The app's first calls on a data screen the server painted with the person's data: the page carries the answers
// the paint was drawn from (src/app/shell-data.tsx), so the same request (GET, same path and query) takes its answer
// from the page instead of asking again, and the app's screen draws the same data as the paint. They answer while
// the paint is on the page: the screen's first calls, whichever of its parts makes them first (the preload of
// src/actors/preload.ts or the screen's machine); once the paint has given way, every call goes out.
import type { PaintedAnswer } from '../../contract/tenant/boot';

function bodyOf(answer: PaintedAnswer): BodyInit {
  if (answer.encoding !== 'base64') return answer.body;
  const bytes = Uint8Array.from(atob(answer.body), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: answer.contentType });
}

/**
 * A fetch that answers `answers` by path and query while `painted()` holds, and sends everything else with `send`.
 */
export function paintedFetch(
  answers: readonly PaintedAnswer[],
  send: typeof fetch,
  painted: () => boolean = () => true,
): typeof fetch {
  const left = [...answers];
  return (resource, init) => {
    if (left.length > 0 && !painted()) left.length = 0;
    // Read, not rebuilt: a Request made from another takes its body.
    const given = resource instanceof Request ? resource : undefined;
    const method = (init?.method ?? given?.method ?? 'GET').toUpperCase();
    const url = new URL(given?.url ?? String(resource), globalThis.document?.baseURI ?? 'http://localhost/');
    const index =
      method === 'GET' && left.length > 0
        ? left.findIndex((answer) => answer.url === `${url.pathname}${url.search}`)
        : -1;
    const answer = index >= 0 ? left[index] : undefined;
    if (!answer) return send(resource, init);
    const headers = answer.contentType ? { 'content-type': answer.contentType } : undefined;
    return Promise.resolve(new Response(bodyOf(answer), { status: answer.status, headers }));
  };
}
