-- The credential-reset mail throttle (server/routes/credential-reset.ts): one row per mail sent, by key, so that
-- every server process behind a load balancer counts the same mails. Rows older than the window are removed whenever
-- a mail is counted.
create table mail_throttle (
  tenant text not null,
  -- 'reset|address|<email>' or 'reset|tenant'
  key text not null,
  sent_at timestamptz not null
);
create index mail_throttle_key on mail_throttle (tenant, key, sent_at);
