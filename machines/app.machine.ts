import { assign, fromPromise, setup } from 'xstate';
import type { BrowserSettings, LocaleCode, TenantSettings } from '../src/api/contract/settings';

// The application's own life: which tenant this is, its language and texts, and whether any request is
// in flight (the global loading indicator). Screens of the product live in their own machines.
export type Messages = Record<string, string>;
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
    applyTheme: (_, _params: { settings: TenantSettings }) => {},
    persistLocale: (_, _params: { locale: LocaleCode }) => {},
    clearErrorNotices: () => {},
    notifyLocaleUnavailable: () => {},
  },
  guards: {
    isOfferedLocale: ({ context, event }) =>
      event.type === 'locale.change' &&
      event.locale !== context.locale &&
      (context.tenant?.settings.locales.includes(event.locale) ?? false),
    isLastRequest: ({ context }) => context.pending <= 1,
  },
}).createMachine({
  id: 'app',
  type: 'parallel',
  // Until the tenant is known, texts follow the browser (for the error screen if it never loads).
  context: ({ input }) => ({ locale: input?.locale ?? 'es', messages: {}, pending: 0 }),
  states: {
    boot: {
      initial: 'loadingTenant',
      states: {
        loadingTenant: {
          tags: ['loading'],
          invoke: {
            id: 'loadTenant',
            src: 'loadTenant',
            onDone: {
              target: 'loadingMessages',
              actions: [
                assign({ tenant: ({ event }) => event.output, locale: ({ event }) => event.output.locale }),
                { type: 'applyTheme', params: ({ event }) => ({ settings: event.output.settings }) },
              ],
            },
            onError: {
              target: 'loadingErrorTexts',
              actions: assign({
                problem: ({ event }) =>
                  (event.error as { problem?: TenantProblem }).problem ?? { kind: 'unreachable', tenant: '' },
              }),
            },
          },
        },
        loadingMessages: {
          tags: ['loading'],
          invoke: {
            id: 'loadMessages',
            src: 'loadMessages',
            input: ({ context }) => ({ tenant: context.tenant, locale: context.locale }),
            onDone: { target: 'ready', actions: assign({ messages: ({ event }) => event.output.messages }) },
            onError: {
              target: 'failed',
              actions: assign({
                problem: ({ context }) => ({
                  kind: 'messages-unavailable',
                  tenant: context.tenant?.tenant ?? '',
                }),
              }),
            },
          },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'locale.change': { guard: 'isOfferedLocale', target: 'switchingLocale' },
              },
            },
            switchingLocale: {
              invoke: {
                id: 'loadMessages',
                src: 'loadMessages',
                input: ({ context, event }) => ({
                  tenant: context.tenant,
                  locale: event.type === 'locale.change' ? event.locale : context.locale,
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({
                      messages: ({ event }) => event.output.messages,
                      locale: ({ event }) => event.output.locale,
                    }),
                    { type: 'persistLocale', params: ({ context }) => ({ locale: context.locale }) },
                  ],
                },
                onError: { target: 'idle', actions: 'notifyLocaleUnavailable' },
              },
            },
          },
        },
        loadingErrorTexts: {
          tags: ['loading'],
          invoke: {
            id: 'loadMessages',
            src: 'loadMessages',
            input: ({ context }) => ({ locale: context.locale }),
            onDone: { target: 'failed', actions: assign({ messages: ({ event }) => event.output.messages }) },
            onError: { target: 'failed' },
          },
        },
        failed: {
          meta: { screen: 'TenantError' },
        },
      },
    },
    loading: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'loading.start': { target: 'busy', actions: assign({ pending: 1 }) },
          },
        },
        busy: {
          tags: ['loading'],
          on: {
            'loading.start': { actions: assign({ pending: ({ context }) => context.pending + 1 }) },
            'loading.end': [
              { guard: 'isLastRequest', target: 'idle', actions: assign({ pending: 0 }) },
              { actions: assign({ pending: ({ context }) => context.pending - 1 }) },
            ],
          },
        },
      },
    },
  },
  on: {
    'route.changed': { actions: 'clearErrorNotices' },
  },
});
