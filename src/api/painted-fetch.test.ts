import { describe, expect, it, vi } from 'vitest';
import { paintedFetch } from './painted-fetch';

const answers = [
  {
    url: '/api/public/visits?pageSize=10',
    status: 200,
    contentType: 'application/json',
    body: '{"items":[]}',
  },
  {
    url: '/api/public/qr',
    status: 200,
    contentType: 'image/png',
    body: Buffer.from('png!').toString('base64'),
    encoding: 'base64' as const,
  },
];

describe("the app's first calls on a page painted with the person's data", () => {
  it('take the answers the paint was drawn from, by path and query, while the paint is on the page', async () => {
    const send = vi.fn(async () => new Response('{"from":"server"}', { status: 200 }));
    let painted = true;
    const fetch = paintedFetch(answers, send, () => painted);
    const first = await fetch(new Request('http://localhost/api/public/visits?pageSize=10'));
    expect(await first.json()).toEqual({ items: [] });
    expect(first.headers.get('content-type')).toBe('application/json');
    const picture = await fetch('http://localhost/api/public/qr');
    expect(await (await picture.blob()).text()).toBe('png!');
    // Asked again by another part of the screen, while the paint is there: the same answer.
    expect(await (await fetch('http://localhost/api/public/visits?pageSize=10')).json()).toEqual({
      items: [],
    });
    expect(send).not.toHaveBeenCalled();
    // Another query, or anything but a GET: the server answers.
    await fetch(new Request('http://localhost/api/public/visits?pageSize=20'));
    await fetch(new Request('http://localhost/api/public/qr', { method: 'POST', body: 'x' }));
    expect(send).toHaveBeenCalledTimes(2);
    // Once the paint has given way, everything goes out.
    painted = false;
    await fetch(new Request('http://localhost/api/public/visits?pageSize=10'));
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('hands a request it does not answer on as it came, body and all', async () => {
    const send = vi.fn(
      async (resource: RequestInfo | URL) => new Response(await (resource as Request).text()),
    );
    const fetch = paintedFetch(answers, send as typeof globalThis.fetch);
    const res = await fetch(
      new Request('http://localhost/api/public/visits', { method: 'POST', body: 'kept' }),
    );
    expect(await res.text()).toBe('kept');
  });
});
