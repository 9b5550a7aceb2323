import { assign, fromPromise, setup } from 'xstate';
import type { BrowserSettings, LocaleCode, TenantSettings } from '../contract/api/settings';
import { screenAt } from '../src/domain/screens';
import { errorOf, outputOf } from './actor-events';

// The application's own life: which tenant this is, its language and texts, and whether any request is
// in flight (the global loading indicator). Screens of the product live in their own machines.
// Guards and actions read the event themselves (no params): the Stately visualizer shows them by name.
/** Message id → its ICU text, or that text already parsed (the build precompiles the portal's catalogues). */
export type Messages = Record<string, string | readonly unknown[]>;
export interface Catalogue {
  locale: LocaleCode;
  messages: Messages;
}
export type TenantProblem =
  | { kind: 'invalid-label'; label: string }
  | { kind: 'unknown-tenant'; tenant: string }
  | { kind: 'invalid-settings'; tenant: string; summary: string }
  | { kind: 'unreachable'; tenant: string }
  | { kind: 'messages-unavailable'; tenant: string };

export interface TenantLoaded {
  tenant: string;
  settings: TenantSettings;
  browsers: BrowserSettings;
  locale: LocaleCode;
}

export interface AppContext {
  tenant?: TenantLoaded;
  locale: LocaleCode;
  messages: Messages;
  problem?: TenantProblem;
  pending: number;
}

export type AppEvent =
  | { type: 'locale.change'; locale: LocaleCode }
  | { type: 'loading.start' }
  | { type: 'loading.end' }
  | { type: 'route.changed'; path: string };

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as { locale: LocaleCode } | undefined,
  },
  actors: {
    loadTenant: fromPromise<TenantLoaded>(async () => {
      throw new Error('loadTenant is provided by the app');
    }),
    loadMessages: fromPromise<Catalogue, { tenant?: TenantLoaded; locale: LocaleCode }>(async () => {
      throw new Error('loadMessages is provided by the app');
    }),
  },
  actions: {
    storeTenant: assign(({ event }) => {
      const tenant = outputOf<TenantLoaded>(event);
      return { tenant, locale: tenant.locale };
    }),
    storeTenantProblem: assign({
      problem: ({ event }) =>
        (errorOf(event) as { problem?: TenantProblem } | null)?.problem ?? {
          kind: 'unreachable',
          tenant: '',
        },
    }),
    storeMessages: assign({ messages: ({ event }) => outputOf<Catalogue>(event).messages }),
    storeCatalogue: assign(({ event }) => {
      const { messages, locale } = outputOf<Catalogue>(event);
      return { messages, locale };
    }),
    storeMessagesProblem: assign({
      problem: ({ context }): TenantProblem => ({
        kind: 'messages-unavailable',
        tenant: context.tenant?.tenant ?? '',
      }),
    }),
    countFirstRequest: assign({ pending: 1 }),
    countRequest: assign({ pending: ({ context }) => context.pending + 1 }),
    uncountRequest: assign({ pending: ({ context }) => context.pending - 1 }),
    resetRequests: assign({ pending: 0 }),
    // Effects, provided by src/app/runtime.ts; they read the context the assigns before them have set.
    applyTheme: () => {},
    persistLocale: () => {},
    clearErrorNotices: () => {},
    notifyLocaleUnavailable: () => {},
    goToRoot: () => {},
  },
  guards: {
    isOfferedLocale: ({ context, event }) =>
      event.type === 'locale.change' &&
      event.locale !== context.locale &&
      (context.tenant?.settings.locales.includes(event.locale) ?? false),
    isLastRequest: ({ context }) => context.pending <= 1,
    // Spec §2: "Any unknown path redirects to the root".
    isUnknownPath: ({ event }) => event.type === 'route.changed' && screenAt(event.path) === undefined,
  },
}).createMachine({
  id: 'app',
  description:
    'The portal itself (spec §1, §2, §4): the tenant taken from the host name and its settings, the interface language (es, en, eu) and its texts, and the loading indicator while any API call is in flight. Every navigation clears the error notifications shown, and an unknown path goes to the root (spec §2).',
  type: 'parallel',
  // Until the tenant is known, texts follow the browser (for the error screen if it never loads).
  context: ({ input }) => ({ locale: input?.locale ?? 'es', messages: {}, pending: 0 }),
  states: {
    boot: {
      description:
        'Starting the portal: the tenant, then its texts; then the screens, or the tenant error screen.',
      initial: 'loadingTenant',
      states: {
        loadingTenant: {
          description: 'A spinner while the settings of the tenant named by the host name load.',
          tags: ['busy'],
          invoke: {
            id: 'loadTenant',
            src: 'loadTenant',
            onDone: { target: 'loadingMessages', actions: ['storeTenant', 'applyTheme'] },
            onError: { target: 'loadingErrorTexts', actions: 'storeTenantProblem' },
          },
        },
        loadingMessages: {
          description:
            "A spinner while the texts of the person's language load (with the tenant's overrides).",
          tags: ['busy'],
          invoke: {
            id: 'loadMessages',
            src: 'loadMessages',
            input: ({ context }) => ({ tenant: context.tenant, locale: context.locale }),
            onDone: { target: 'ready', actions: 'storeMessages' },
            onError: { target: 'failed', actions: 'storeMessagesProblem' },
          },
        },
        ready: {
          description: 'The portal shows its screens, in the chosen language.',
          initial: 'idle',
          states: {
            idle: {
              description: 'The language dropdown offers the other locales of the tenant.',
              on: {
                'locale.change': { guard: 'isOfferedLocale', target: 'switchingLocale' },
              },
            },
            switchingLocale: {
              description:
                'The texts of the chosen language load; if they cannot, an error notification says so and the language stays as it was.',
              invoke: {
                id: 'loadMessages',
                src: 'loadMessages',
                input: ({ context, event }) => ({
                  tenant: context.tenant,
                  locale: event.type === 'locale.change' ? event.locale : context.locale,
                }),
                onDone: { target: 'idle', actions: ['storeCatalogue', 'persistLocale'] },
                onError: { target: 'idle', actions: 'notifyLocaleUnavailable' },
              },
            },
          },
        },
        loadingErrorTexts: {
          description:
            'The tenant could not be loaded: the texts for the error screen load in the browser language.',
          tags: ['busy'],
          invoke: {
            id: 'loadMessages',
            src: 'loadMessages',
            input: ({ context }) => ({ locale: context.locale }),
            onDone: { target: 'failed', actions: 'storeMessages' },
            onError: { target: 'failed' },
          },
        },
        failed: {
          description:
            'TenantError screen: the tenant is unknown, its settings are invalid or unreachable, or its texts did not load (the kind is in context.problem); the person can only reload.',
          meta: { screen: 'TenantError' },
        },
      },
    },
    loading: {
      description: 'The global loading indicator (spec §8: it ends on errors too).',
      initial: 'idle',
      states: {
        idle: {
          description: 'No API call in flight: no loading bar.',
          on: {
            'loading.start': { target: 'busy', actions: 'countFirstRequest' },
          },
        },
        busy: {
          description: 'The loading bar shows at the top of the page while any API call is in flight.',
          tags: ['busy'],
          on: {
            'loading.start': { actions: 'countRequest' },
            'loading.end': [
              { guard: 'isLastRequest', target: 'idle', actions: 'resetRequests' },
              { actions: 'uncountRequest' },
            ],
          },
        },
      },
    },
  },
  on: {
    'route.changed': [
      { guard: 'isUnknownPath', actions: ['clearErrorNotices', 'goToRoot'] },
      { actions: 'clearErrorNotices' },
    ],
  },
});
