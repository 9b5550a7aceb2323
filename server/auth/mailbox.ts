// GET /dev/mailbox: the outbox (password reset mails), newest first. Development only: never mounted with
// NODE_ENV=production.
import { Hono } from 'hono';
import type { Db } from '../db/db';
import { esc } from '../http/html';

interface MailRow {
  tenant: string;
  recipient: string;
  subject: string;
  body: string;
  link: string | null;
  created_at: Date;
}

export function mailboxRoutes(db: Db): Hono {
  const app = new Hono();
  app.get('/dev/mailbox', async (c) => {
    const { rows } = await db.query<MailRow>(
      'select tenant, recipient, subject, body, link, created_at from outbox order by created_at desc limit 200',
    );
    const mails = rows
      .map(
        (mail) => `<article>
<h2>${esc(mail.subject)}</h2>
<p class="meta">To <strong>${esc(mail.recipient)}</strong> · tenant ${esc(mail.tenant)} · ${esc(mail.created_at.toISOString())}</p>
<p>${esc(mail.body)}</p>
${mail.link ? `<p><a href="${esc(mail.link)}">${esc(mail.link)}</a></p>` : ''}
</article>`,
      )
      .join('\n');
    c.header('Cache-Control', 'no-store');
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox (development)</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#0f172a}
article{border:1px solid #cbd5e1;border-radius:8px;padding:12px 16px;margin:12px 0}h2{font-size:1.1rem;margin:0}
.meta{color:#475569;font-size:14px}a{word-break:break-all}</style></head>
<body><main><h1>Mailbox (development)</h1>
${mails || '<p>No mail yet.</p>'}
</main></body></html>`);
  });
  return app;
}
