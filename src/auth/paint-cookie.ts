// The cookie by which the server paints a data screen with the person's data (src/app/shell-data.tsx): the access
// token the app holds, kept in step with it. Written when the session becomes usable or is renewed, removed when it
// ends; it lives no longer than the token. `SameSite=Strict`: a page of another site that links here gets the
// generic paint. The API never reads it (it takes the bearer only), so it opens no way to act as the person; the
// page server only reads with it what the person's own first calls would.
import { PAINT_TOKEN_COOKIE } from '../../contract/tenant/boot';
import type { Session } from './access';

/** Browsers keep a cookie of up to 4,096 bytes, name and attributes included: a longer token is not kept. */
const MAX_VALUE = 3800;

/** What document.cookie is set to for `session` (null: removed), at `now` (seconds). */
export function paintCookie(
  session: Session | null,
  { secure, now }: { secure: boolean; now: number },
): string {
  const attributes = `; Path=/; SameSite=Strict${secure ? '; Secure' : ''}`;
  const life = session ? Math.floor(session.expiresAt - now) : 0;
  if (
    !session ||
    life <= 0 ||
    session.accessToken.length > MAX_VALUE ||
    !/^[\w.-]+$/.test(session.accessToken)
  )
    return `${PAINT_TOKEN_COOKIE}=${attributes}; Max-Age=0`;
  return `${PAINT_TOKEN_COOKIE}=${session.accessToken}${attributes}; Max-Age=${life}`;
}

/**
 * Keeps the cookie in step with the session: `session` is the usable session (null when there is none), written
 * only when it changes. `brokered`: the session carries claims of a brokered identity kept in this browser, which
 * the server cannot know; such a session gets the generic paint.
 */
export function paintCookieKeeper(doc: Pick<Document, 'cookie'> & { location: Pick<Location, 'protocol'> }) {
  let last: string | null | undefined;
  return (session: Session | null, brokered: boolean) => {
    const token = session && !brokered ? session.accessToken : null;
    if (token === last) return;
    last = token;
    doc.cookie = paintCookie(token ? session : null, {
      secure: doc.location.protocol === 'https:',
      now: Date.now() / 1000,
    });
  };
}
