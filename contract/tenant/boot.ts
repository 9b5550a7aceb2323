// What the server's page hands to the app (server/shell.ts writes it, src/tenant/load.ts reads it): the files the
// app would otherwise ask for before its first API call or its first render, as the server read them to paint the
// screen.

/** The id of the page's `<script type="application/json">` that carries the tenant's files. */
export const PORTAL_BOOT_ID = 'portal-boot';

/**
 * The `<template>` after a server-painted screen (server/shell.ts): the whole stylesheet's link and the screen's
 * files' `<link rel="modulepreload">`, which the page's inline script adds once the paint is on screen.
 */
export const PRELOADS_TEMPLATE_ID = 'portal-preloads';

/**
 * The link of the whole stylesheet on a page whose inline `<style>` holds only what the paint uses
 * (server/critical-css.ts); the app draws once it has loaded (src/app/full-sheet.ts).
 */
export const FULL_SHEET_ATTRIBUTE = 'data-full-sheet';

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
  /** A data screen painted with the person's data: the answers it was drawn from, for the app's first calls. */
  answers?: PaintedAnswer[];
  /** The instant the painted screen opened at (ISO 8601), for a first call that asks up to it (AuditAccesses). */
  openedAt?: string;
}

/**
 * An answer of the API the server's paint of a data screen was drawn from (src/app/shell-data.tsx), as the app's
 * own first call would have received it: by the call's path and query.
 */
export interface PaintedAnswer {
  url: string;
  status: number;
  contentType: string;
  /** The body as text; base64 when `encoding` says so (an image). */
  body: string;
  encoding?: 'base64';
}

/**
 * The cookie the app keeps in step with its access token (src/auth/paint-cookie.ts) so that the server can paint a
 * data screen with the person's data. The API never reads it: it takes the bearer only.
 */
export const PAINT_TOKEN_COOKIE = 'portal_paint';
