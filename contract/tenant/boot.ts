// What the server's page hands to the app (server/shell.ts writes it, src/tenant/load.ts reads it): the files the
// app would otherwise ask for before its first API call, as the server read them to paint the screen.

/** The id of the page's `<script type="application/json">` that carries the tenant's files. */
export const PORTAL_BOOT_ID = 'portal-boot';

export interface PortalBoot {
  /** The tenant the page was made for (the host's). */
  tenant: string;
  /** `settings.json` as the file has it. */
  settings: unknown;
  /** `browsers.json` as the file has it. */
  browsers: unknown;
  /** The tenant's text overrides for the page's language (`{}` when it has none). */
  texts: { locale: string; overrides: unknown };
}
