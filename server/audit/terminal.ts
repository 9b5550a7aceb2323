// GET and POST /dev/terminal: a door to try by hand. Choose a tenant and one of its facilities, present a QR (its
// text or a bare sid, typed) or a face (a person's face credential, as a door's camera would match it), and see the
// door's decision and reason, stored in the audit like any other (POST /internal/accesses decides the same way, with
// the same decideAccess). Development only: mounted beside /dev/mailbox and, like it, answered only to a person at
// this machine (server/dev-routes.ts). The page has no script at all, so the site's CSP holds as it is.
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { referenceEnforcement } from '../enforcement/source';
import { esc } from '../http/html';
import { HttpProblem, makeProblem, problemResponse } from '../http/problem';
import { type Facility as DoorFacility, decideAccess } from './accesses';
import { auditSettingsLoader } from './settings';

interface FacilityRow extends DoorFacility {
  timezone: string;
}

interface FaceRow {
  sid: string;
  first_name: string;
  last_name: string;
  id_number: string | null;
}

interface RecentRow {
  created_at: Date;
  alias: string;
  granted: boolean;
  reason: string;
  first_name: string | null;
  last_name: string | null;
}

interface Decision {
  granted: boolean;
  reason: string;
  facility: string;
  credential: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:720px;margin:24px auto;padding:0 16px;color:#0f172a}
form{display:grid;gap:12px;border:1px solid #cbd5e1;border-radius:8px;padding:16px;margin:16px 0}
label{display:grid;gap:4px;font-weight:600}select,input,button{font:inherit;padding:8px;border-radius:6px;border:1px solid #94a3b8}
button{background:#0d55ff;color:#fff;border:0;font-weight:600;cursor:pointer}
.granted{background:#d1fae5;border:2px solid #047857;color:#064e3b}.denied{background:#fee2e2;border:2px solid #b91c1c;color:#7f1d1d}
.decision{border-radius:8px;padding:16px;font-size:1.25rem}table{border-collapse:collapse;width:100%;font-size:14px}
td,th{border-bottom:1px solid #e2e8f0;padding:4px 6px;text-align:left}.hint{color:#475569;font-weight:400;font-size:14px}`;

/**
 * A cross-site form post to this page would make decisions (and audit rows) in the person's name: only a post from
 * this page itself is taken (Sec-Fetch-Site where the browser sends it, else the Origin, else nothing to say).
 */
function sameOrigin(headers: { get(name: string): string | null | undefined }, url: string): boolean {
  const site = headers.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = headers.get('origin');
  return !origin || origin === new URL(url).origin;
}

export function terminalRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  const { db } = deps;
  const enforcement =
    deps.onboarding?.enforcement ?? referenceEnforcement(deps.onboarding?.faults ?? { enforcement: false });
  const now = deps.onboarding?.now ?? (() => new Date());
  const settingsOf = auditSettingsLoader(deps.config.publicDir);

  const tenantOf = (value: string | undefined) =>
    value && deps.tenants.includes(value) ? value : (deps.tenants[0] ?? 'gambling');

  async function page(
    tenant: string,
    chosen: { facility_id?: string; credential?: string; face?: string },
    decision: Decision | null,
    problem: string | null,
  ): Promise<string> {
    const facilities = await db.query<FacilityRow>(
      'select facility_id, alias, timezone, legal_domain from facilities where tenant = $1 order by alias, facility_id',
      [tenant],
    );
    const faces = await db.query<FaceRow>(
      `select c.sid::text as sid, u.first_name, u.last_name, u.id_number
         from credentials c join users u on u.tenant = c.tenant and u.user_id = c.user_id
        where c.tenant = $1 and c.credential_type = 'embedding' and c.state = 'active'
        order by u.last_name, u.first_name limit 300`,
      [tenant],
    );
    const recent = await db.query<RecentRow>(
      `select a.created_at, f.alias, a.granted, a.reason, a.first_name, a.last_name
         from audit_accesses a join facilities f on f.tenant = a.tenant and f.facility_id = a.facility_id
        where a.tenant = $1 order by a.created_at desc, a.access_id desc limit 10`,
      [tenant],
    );
    const option = (value: string, label: string, selected: boolean) =>
      `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`;
    const result = decision
      ? `<p class="decision ${decision.granted ? 'granted' : 'denied'}" data-testid="terminal-decision" data-granted="${decision.granted}" data-reason="${esc(decision.reason)}" role="status">
<strong>${decision.granted ? 'GRANTED' : 'DENIED'}</strong> · ${esc(decision.reason)} · ${esc(decision.facility)}</p>`
      : '';
    const rows = recent.rows
      .map(
        (row) =>
          `<tr><td>${esc(row.created_at.toISOString().replace('T', ' ').slice(0, 19))}</td><td>${esc(row.alias)}</td><td>${esc(
            [row.first_name, row.last_name].filter(Boolean).join(' ') || '—',
          )}</td><td>${row.granted ? 'granted' : 'denied'}</td><td>${esc(row.reason)}</td></tr>`,
      )
      .join('');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Door terminal (development)</title><style>${STYLE}</style></head>
<body><main><h1>Door terminal (development)</h1>
<p>Present a credential at a facility: the door decides as <code>POST /api/internal/accesses</code> does and the decision goes to the access audit (AuditAccesses).</p>
<form method="get" action="/dev/terminal"><label>Tenant <select name="tenant" data-testid="terminal-tenant">${deps.tenants
      .map((t) => option(t, t, t === tenant))
      .join('')}</select></label><button type="submit">Change tenant</button></form>
<form method="post" action="/dev/terminal">
<input type="hidden" name="tenant" value="${esc(tenant)}">
<label>Facility <select name="facility_id" data-testid="terminal-facility" required>${facilities.rows
      .map((f) =>
        option(
          f.facility_id,
          `${f.alias}${f.legal_domain ? ` (${f.legal_domain})` : ''}`,
          f.facility_id === chosen.facility_id,
        ),
      )
      .join('')}</select></label>
<label>QR <span class="hint">its text (acs:${esc(tenant)}:&lt;acs_id&gt;:&lt;sid&gt;) or the bare sid</span>
<input name="credential" data-testid="terminal-credential" autocomplete="off" value="${esc(chosen.credential ?? '')}"></label>
<label>or a face <span class="hint">the face credential the door's camera matched</span>
<select name="face" data-testid="terminal-face">${option('', '— none —', !chosen.face)}${faces.rows
      .map((f) =>
        option(
          f.sid,
          `${f.first_name} ${f.last_name}${f.id_number ? ` · ${f.id_number}` : ''}`,
          f.sid === chosen.face,
        ),
      )
      .join('')}</select></label>
<button type="submit" data-testid="terminal-present">Present</button>
</form>
${problem ? `<p class="decision denied" role="alert" data-testid="terminal-problem">${esc(problem)}</p>` : ''}
${result}
<h2>Last decisions at ${esc(tenant)}</h2>
<table><thead><tr><th>when (UTC)</th><th>facility</th><th>person</th><th>result</th><th>reason</th></tr></thead><tbody>${rows}</tbody></table>
</main></body></html>`;
  }

  app.get('/dev/terminal', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.html(await page(tenantOf(c.req.query('tenant')), {}, null, null));
  });

  app.post('/dev/terminal', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (!sameOrigin(c.req.raw.headers, c.req.url))
      return c.text('Only this page may present credentials.', 403);
    let form: Awaited<ReturnType<typeof c.req.parseBody>>;
    try {
      form = await c.req.parseBody();
    } catch {
      // A multipart body cut short or malformed, or a client gone mid-request: the caller's fault, not a 500.
      throw new HttpProblem(400, 'The form cannot be read.', 'invalid_multipart');
    }
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
    // A NUL is no facility, credential or tenant, and PostgreSQL refuses it in text: the form is unreadable.
    if (['tenant', 'facility_id', 'credential', 'face'].some((name) => field(name).includes('\u0000'))) {
      return problemResponse(makeProblem(400, 'The form cannot be read.', 'invalid_multipart'));
    }
    const tenant = tenantOf(field('tenant'));
    const chosen = {
      facility_id: field('facility_id'),
      credential: field('credential'),
      face: field('face'),
    };
    const credential = chosen.credential || chosen.face;
    const facilities = await db.query<FacilityRow>(
      'select facility_id, alias, timezone, legal_domain from facilities where tenant = $1 and facility_id = $2',
      [tenant, chosen.facility_id],
    );
    const facility = facilities.rows[0];
    if (!facility || !credential) {
      const problem = !facility
        ? 'Choose a facility of the tenant.'
        : 'Type a QR (or its sid) or choose a face.';
      return c.html(await page(tenant, chosen, null, problem), 422);
    }
    const settings = await settingsOf(tenant);
    const decision = await decideAccess(db, tenant, facility, credential.slice(0, 512), {
      now: now(),
      legalDomains: settings.legalDomains,
      enforcement,
    });
    return c.html(
      await page(
        tenant,
        chosen,
        { granted: decision.granted, reason: decision.reason, facility: facility.alias, credential },
        null,
      ),
    );
  });

  return app;
}
