import { createActor, fromPromise } from 'xstate';
import { appMachine } from '../../machines/app.machine';
import { notificationsMachine } from '../../machines/notifications.machine';
import type { ApiClient } from '../api/client';
import { loadCatalogue } from '../i18n/catalogue';
import { LOCALES, readStoredLocale, resolveLocale, storeLocale } from '../i18n/locale';
import { loadTenant } from '../tenant/load';
import { applyTheme, themeFromBrandColour } from '../tenant/theme';

/** The long-lived actors of the application, wired to their real effects. */
export function createRuntime(
  navigate: (path: string) => void = (path) => window.history.pushState(null, '', path),
) {
  const notifications = createActor(notificationsMachine);

  const app = createActor(
    appMachine.provide({
      actors: {
        loadTenant: fromPromise(async () => {
          const loaded = await loadTenant(window.location.hostname);
          const locale = resolveLocale({
            stored: readStoredLocale(),
            browser: navigator.languages,
            available: loaded.settings.locales,
          });
          return { ...loaded, locale };
        }),
        loadMessages: fromPromise(async ({ input }) => ({
          locale: input.locale,
          messages: await loadCatalogue(input.locale, input.tenant?.settings.assetsUrl),
        })),
      },
      actions: {
        applyTheme: (_, { settings }) => {
          applyTheme(themeFromBrandColour(settings.theme.brandColor));
          document.title = settings.title;
        },
        persistLocale: (_, { locale }) => storeLocale(locale),
        clearErrorNotices: () => notifications.send({ type: 'errors.clear' }),
        notifyLocaleUnavailable: () =>
          notifications.send({ type: 'notify', level: 'error', messageId: 'header.language.unavailable' }),
      },
    }),
    {
      input: {
        locale: resolveLocale({
          stored: readStoredLocale(),
          browser: navigator.languages,
          available: LOCALES,
        }),
      },
    },
  );

  let api: Promise<ApiClient> | undefined;
  /** The API client of this tenant, loaded with its first call (the welcome screen makes none). */
  function apiClient(): Promise<ApiClient> {
    const tenant = app.getSnapshot().context.tenant;
    if (!tenant) return Promise.reject(new Error('the API client needs the tenant'));
    api ??= import('../api/client').then(({ createApiClient }) =>
      createApiClient({
        baseUrl: '/api',
        tenantId: tenant.tenant,
        getToken: () => undefined,
        renewOnce: async () => false,
        onUnauthorized: () => {},
        notify: (notice) => notifications.send({ type: 'notify', ...notice }),
        navigate,
        loading: {
          start: () => app.send({ type: 'loading.start' }),
          end: () => app.send({ type: 'loading.end' }),
        },
      }),
    );
    return api;
  }

  return {
    app,
    notifications,
    apiClient,
    start() {
      notifications.start();
      app.start();
    },
  };
}

export type Runtime = ReturnType<typeof createRuntime>;
