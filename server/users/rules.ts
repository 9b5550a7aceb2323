// The rules of the staff's user list (spec §5): its filter, its bookmarks, its page sizes.

export const MAX_PAGE_SIZE = 100;

/** Spec §5: the list filter is sent wrapped in quotes; the quotes are not part of what is looked for. */
export function unquoteFilter(raw: string | undefined): string {
  const value = (raw ?? '').trim().slice(0, 200);
  const quoted = /^"(.*)"$/s.exec(value);
  return (quoted ? (quoted[1] ?? '') : value).trim();
}

/** The bookmark of a page: the page it opens, opaque to the client (base64url). */
export const bookmarkOf = (pageIndex: number) => Buffer.from(`p:${pageIndex}`).toString('base64url');

/** The page a bookmark opens; null when this server did not give it. */
export function pageOfBookmark(bookmark: string): number | null {
  const match = /^p:(\d{1,6})$/.exec(Buffer.from(bookmark, 'base64url').toString());
  return match ? Number(match[1]) : null;
}

/** An identity number as it is compared: upper case, without spaces or dashes. */
export const normalIdNumber = (value: string) => value.toUpperCase().replace(/[\s-]/g, '');

export const isIsoDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
