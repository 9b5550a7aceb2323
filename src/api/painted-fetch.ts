// The app's first calls on a data screen the server painted with the person's data: the page carries the answers
// the paint was drawn from (src/app/shell-data.tsx), so the same request (GET, same path and query) takes its answer
// from the page, once, instead of asking again; the app's screen then draws the same data as the paint. Anything
// else goes out as usual.
import type { PaintedAnswer } from '../../contract/tenant/boot';

function bodyOf(answer: PaintedAnswer): BodyInit {
  if (answer.encoding !== 'base64') return answer.body;
  const bytes = Uint8Array.from(atob(answer.body), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: answer.contentType });
}

/** A fetch that answers each of `answers` once, by path and query, and sends everything else with `send`. */
export function paintedFetch(answers: readonly PaintedAnswer[], send: typeof fetch): typeof fetch {
  const left = [...answers];
  return (resource, init) => {
    // Read, not rebuilt: a Request made from another takes its body.
    const given = resource instanceof Request ? resource : undefined;
    const method = (init?.method ?? given?.method ?? 'GET').toUpperCase();
    const url = new URL(given?.url ?? String(resource), globalThis.document?.baseURI ?? 'http://localhost/');
    const index =
      method === 'GET' && left.length > 0
        ? left.findIndex((answer) => answer.url === `${url.pathname}${url.search}`)
        : -1;
    const answer = index >= 0 ? left.splice(index, 1)[0] : undefined;
    if (!answer) return send(resource, init);
    const headers = answer.contentType ? { 'content-type': answer.contentType } : undefined;
    return Promise.resolve(new Response(bodyOf(answer), { status: answer.status, headers }));
  };
}
