import { FULL_SHEET_ATTRIBUTE, PRELOADS_TEMPLATE_ID } from '../../contract/tenant/boot';

// A server-painted page inlines only the rules its paint uses (server/critical-css.ts) and links the whole
// stylesheet once the paint is on screen (its inline script adds the template's links). The app's screens use
// classes the paint did not, so its first render waits for the whole sheet: unstyled for a frame, it would jump.
// The inline script may not have linked it yet (its frame callback does not run in a tab in the background): then
// the link is taken from the template here. A page without the template (`npm run dev`, an address the server does
// not paint) has its sheet in index.html, loaded before any script ran.

/**
 * The longest the first render waits for the sheet: one that failed before anyone listened gives no event, and the
 * app draws anyway (unstyled beats nothing).
 */
export const WHOLE_SHEET_WAIT_MS = 5000;

const linkLoaded = (link: HTMLLinkElement) =>
  new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    if (link.sheet) resolve();
  });

/** Resolves once the page's whole stylesheet has loaded (at once on a page that has no other). */
export function wholeStylesheetLoaded(doc: Document = document): Promise<void> {
  const selector = `link[${FULL_SHEET_ATTRIBUTE}]`;
  const template = doc.getElementById(PRELOADS_TEMPLATE_ID);
  if (template instanceof HTMLTemplateElement)
    for (const link of template.content.querySelectorAll(selector)) doc.head.appendChild(link);
  const links = [...doc.querySelectorAll<HTMLLinkElement>(selector)];
  if (links.length === 0) return Promise.resolve();
  const timeUp = new Promise<void>((resolve) => setTimeout(resolve, WHOLE_SHEET_WAIT_MS));
  return Promise.race([Promise.all(links.map(linkLoaded)).then(() => undefined), timeUp]);
}
