/**
 * The page size of each list screen. Its machine asks for pages of this size, and so does the preload of the
 * screen's first page (src/actors/preload.ts), which must ask for exactly what the machine will.
 */
export const PAGE_SIZES = {
  accounts: 10,
  audit: 25,
  users: 20,
  visits: 10,
} as const;
