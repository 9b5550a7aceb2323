import { describe, expect, it } from 'vitest';
import { type AppEvent, appMachine, type TenantLoaded } from '../../machines/app.machine';
import { coverMachine, generatePaths, type ModelSpec } from './harness';

const tenant = {
  tenant: 'gambling',
  locale: 'es',
  browsers: {},
  settings: { locales: ['es', 'en', 'eu'], theme: { brandColor: '#0D55FF', logo: 'logo.svg' } },
} as unknown as TenantLoaded;

const spec: ModelSpec<typeof appMachine> = {
  machine: appMachine,
  events: (snapshot) => [
    { type: 'xstate.done.actor.loadTenant', output: tenant },
    {
      type: 'xstate.error.actor.loadTenant',
      error: { problem: { kind: 'unknown-tenant', tenant: 'nobody' } },
    },
    {
      type: 'xstate.done.actor.loadMessages',
      output: { locale: snapshot.context.locale === 'es' ? 'eu' : 'es', messages: {} },
    },
    { type: 'xstate.error.actor.loadMessages', error: new Error('offline') },
    { type: 'locale.change', locale: 'eu' } satisfies AppEvent,
    { type: 'locale.change', locale: 'es' } satisfies AppEvent,
    { type: 'loading.start' } satisfies AppEvent,
    { type: 'loading.end' } satisfies AppEvent,
    { type: 'route.changed', path: '/' } satisfies AppEvent,
    { type: 'route.changed', path: '/nowhere' } satisfies AppEvent,
  ],
  // Two requests in flight is the most that changes behaviour (the last one ends the indicator).
  serialize: (s) => ({ value: s.value, pending: Math.min(s.context.pending, 2), locale: s.context.locale }),
  provide: (control) =>
    appMachine.provide({
      actors: { loadTenant: control.actor('loadTenant'), loadMessages: control.actor('loadMessages') },
    }),
};

describe('app machine (generated paths)', () => {
  it('generates paths through boot, locale switching and the loading indicator', () => {
    expect(generatePaths(spec).length).toBeGreaterThan(10);
  });

  it('covers every transition on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
  });
});
