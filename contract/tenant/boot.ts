// What the server's page hands to the app (server/shell.ts writes it, src/tenant/load.ts reads it): the files the
// app would otherwise ask for before its first API call or its first render, as the server read them to paint the
// screen.

/** The id of the page's `<script type="application/json">` that carries the tenant's files. */
export const PORTAL_BOOT_ID = 'portal-boot';

export interface PortalBoot {
  /** The tenant the page was made for (the host's). */
  tenant: string;
  /** `settings.json` as the file has it. */
  settings: unknown;
  /** `browsers.json` as the file has it. */
  browsers: unknown;
  /**
   * The page's language: the tenant's text overrides in it (`{}` when it has none) and the portal's own texts the
   * first screens draw (src/i18n/first-screen.ts) as the build's syntax trees, the catalogue's first part, which the
   * app then does not download.
   */
  texts: { locale: string; overrides: unknown; first?: unknown };
}
