import { createHash } from 'node:crypto';
import { PAINT_TOKEN_COOKIE, PRELOADS_TEMPLATE_ID } from '../contract/tenant/boot';
import { STAFF_PERMISSIONS } from '../src/first-paint';

/** How long one task of the inline script adds the template's links before it gives the main thread back. */
export const LINKS_TASK_MS = 8;

/**
 * The one inline script of the portal, right after the server's first paint of a screen (server/shell.ts):
 * when this browser holds what the server could not know, it takes the paint away before it shows, and the app
 * draws as it always did. That is a language chosen before (stored), someone signed in on Welcome (the app goes
 * on to their home), nobody signed in on Landing (the app sends to login), an enrolment kept to resume (the app
 * goes to its step), or, on Landing, a session the paint is not drawn for. The server paints Landing for a person
 * who enrols themselves and is not enrolled yet (src/app/shell.tsx `NEWCOMER`): the stored access token's payload
 * (oidc-client-ts keeps the user under `oidc.user:<authority>:<client>`) must say `enrolled: false`, hold
 * `post_onboardings_auto` and none of the staff rights (`STAFF_PERMISSIONS` of src/auth/access.ts, which bring the
 * assisted texts, the portal entry and the other menu items); an assistant, an enrolled person or any token it
 * cannot read drops the paint. The other screens' paint depends on nobody (the person's parts are the app's to add),
 * so only another stored language drops it, or, on a screen painted for its main audience (`data-not-for`: the
 * rights of those whose first render is another, src/app/shell.tsx PAINT_NOT_FOR), a stored session holding one.
 * A paint with someone's data (`data-with-data`, src/app/shell-data.tsx) comes hidden; it shows only when this
 * browser's stored session holds the very token of the cookie it was drawn by, else it is dropped and the cookie
 * removed: a cookie left behind by a session that ended another way never shows its data to whoever opens the page
 * next.
 * Once the paint is on screen, it links the whole stylesheet and the screen's files (the `<template>` after the
 * paint: server/screen-preloads.ts), a few in each task. Allowed by its hash in the CSP (server/security-headers.ts), never by
 * 'unsafe-inline'. ES5: it runs before any polyfill, on any browser that gets the page.
 */
export const SHELL_SCRIPT =
  '(function(){var s=document.getElementById("shell"),r=document.getElementById("root");if(!s||!r)return;' +
  `var S=${JSON.stringify(STAFF_PERMISSIONS)};` +
  'function claims(v){var t=JSON.parse(v).access_token.split(".")[1].replace(/-/g,"+").replace(/_/g,"/");' +
  'return JSON.parse(atob(t))}' +
  'function painted(c){var g=c.roles;if(c.enrolled!==false||!g||g.indexOf("post_onboardings_auto")<0)return false;' +
  'for(var j=0;j<S.length;j++)if(g.indexOf(S[j])>=0)return false;return true}' +
  'var N=(s.getAttribute("data-not-for")||"").split(",");' +
  'function other(c){var g=c.roles||[];for(var j=0;j<N.length;j++)if(N[j]&&g.indexOf(N[j])>=0)return true;' +
  'return false}' +
  'var drop=false;try{var l=localStorage.getItem("portal.locale"),u=false,e=false,p=true,o=false,T=[];' +
  'for(var i=0;i<localStorage.length;i++){var k=localStorage.key(i)||"";' +
  'if(k.indexOf("oidc.user:")===0&&k.slice(-7)!==":broker"){u=true;var v=localStorage.getItem(k),c=claims(v);' +
  'T.push(JSON.parse(v).access_token);p=p&&painted(c);o=o||other(c)}' +
  'if(k.indexOf("portal.enrolment:")===0)e=true}' +
  // A paint with someone's data: this browser's session must be the one it was drawn for (the cookie's token).
  `var D=s.hasAttribute("data-with-data"),m=document.cookie.match(/(?:^|; )${PAINT_TOKEN_COOKIE}=([^;]*)/),` +
  'f=D&&(!m||T.indexOf(m[1])<0);' +
  `if(f)document.cookie="${PAINT_TOKEN_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict";` +
  'var w=s.getAttribute("data-paint");drop=(l!==null&&l!==s.getAttribute("data-locale"))||' +
  '(w==="Welcome"&&u)||(w==="Landing"&&(!u||e||!p))||o||f}catch(x){drop=true}' +
  'if(drop){s.remove();r.hidden=false}else s.hidden=false;' +
  // The whole stylesheet and the screen's files, linked once the paint is on screen: before it, they would share the
  // phone's bandwidth and its six connections to the server with what the paint shows (server/screen-preloads.ts).
  // A few links per task: the browser sends each request from the page's main thread (up to ~5 ms each on a cold
  // page, four times that on a slow phone), and twenty of them at once were one task of 100-250 ms on a phone. The
  // template is read anew each time: the app may have taken the sheet's link out of it already (src/app/full-sheet.ts).
  `function link(){var t=document.getElementById("${PRELOADS_TEMPLATE_ID}"),c=t&&t.content,d=Date.now();` +
  `if(!c)return;while(c.firstChild){document.head.appendChild(c.firstChild);if(Date.now()-d>=${LINKS_TASK_MS})break}` +
  'if(c.firstChild)setTimeout(link,0)}' +
  'if(typeof requestAnimationFrame=="function")requestAnimationFrame(function(){setTimeout(link,0)})' +
  '})();';

export const SHELL_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SHELL_SCRIPT).digest('base64')}'`;
