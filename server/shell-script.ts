import { createHash } from 'node:crypto';

/**
 * The one inline script of the portal, right after the server's first paint of Welcome or Landing (server/shell.ts):
 * when this browser holds what the server could not know, it takes the paint away before it shows, and the app
 * draws as it always did. That is a language chosen before (stored), someone signed in on Welcome (the app goes
 * on to their home), nobody signed in on Landing (the app sends to login), or an enrolment kept to resume (the app
 * goes to its step). Allowed by its hash in the CSP (server/security-headers.ts), never by 'unsafe-inline'.
 */
export const SHELL_SCRIPT =
  '(function(){var s=document.getElementById("shell"),r=document.getElementById("root");if(!s||!r)return;' +
  'var drop=false;try{var l=localStorage.getItem("portal.locale"),u=false,e=false;' +
  'for(var i=0;i<localStorage.length;i++){var k=localStorage.key(i)||"";' +
  'if(k.indexOf("oidc.user:")===0&&k.slice(-7)!==":broker")u=true;if(k.indexOf("portal.enrolment:")===0)e=true}' +
  'var w=s.getAttribute("data-screen");drop=(l!==null&&l!==s.getAttribute("data-locale"))||' +
  '(w==="Welcome"&&u)||(w==="Landing"&&(!u||e))}catch(x){drop=true}' +
  'if(drop){s.remove();r.hidden=false}})();';

export const SHELL_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SHELL_SCRIPT).digest('base64')}'`;
