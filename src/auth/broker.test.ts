import { describe, expect, it, vi } from 'vitest';
import { unsignedJwt } from '../../tests/support/unsigned-jwt';
import { brokerClaims } from './broker';

function setup(answers: (Response | Error)[]) {
  const fetch = vi.fn(async () => {
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  });
  const sleeps: number[] = [];
  const request = {
    authority: 'https://portal.example/auth/realms/gambling',
    provider: 'cl@ve',
    accessToken: 'token-1',
    fetch: fetch as unknown as typeof globalThis.fetch,
    sleep: async (ms: number) => void sleeps.push(ms),
  };
  return { fetch, sleeps, request };
}

describe('broker token', () => {
  it('reads the external identity claims from the id_token, with the bearer, at the broker endpoint', async () => {
    const { fetch, request, sleeps } = setup([
      new Response(JSON.stringify({ id_token: unsignedJwt({ given_name: 'Ana', birthdate: '1990-04-01' }) })),
    ]);
    expect(await brokerClaims(request)).toEqual({ given_name: 'Ana', birthdate: '1990-04-01' });
    expect(fetch).toHaveBeenCalledWith(
      'https://portal.example/auth/realms/gambling/broker/cl%40ve/token',
      expect.objectContaining({ headers: expect.objectContaining({ authorization: 'Bearer token-1' }) }),
    );
    expect(sleeps).toEqual([]);
  });

  it('tries 3 times, waiting 300 ms × the attempt number, then gives up with no claims', async () => {
    const { fetch, request, sleeps } = setup([
      new Response('', { status: 500 }),
      new Error('offline'),
      new Response('{"error":"not_linked"}', { status: 400 }),
    ]);
    expect(await brokerClaims(request)).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(sleeps).toEqual([300, 600]);
  });

  it('stops at the first success', async () => {
    const { fetch, request, sleeps } = setup([
      new Response('', { status: 502 }),
      new Response(JSON.stringify({ access_token: unsignedJwt({ nationality: 'ESP' }) })),
    ]);
    expect(await brokerClaims(request)).toEqual({ nationality: 'ESP' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sleeps).toEqual([300]);
  });
});
