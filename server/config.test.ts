import { describe, expect, it } from 'vitest';
import { configFromEnv } from './config';

describe('configFromEnv', () => {
  it('applies the defaults relative to the working directory', () => {
    expect(configFromEnv({}, '/srv/portal')).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/portal/.data',
      databaseUrl: undefined,
      nodeEnv: undefined,
      logLevel: undefined,
      distDir: '/srv/portal/dist',
      publicDir: '/srv/portal/public',
      serveSpa: true,
      devMailbox: false,
      trustProxy: false,
      accessTokenTtl: 300,
      publicUrls: undefined,
      publicPort: undefined,
      livenessActions: ['turn_left', 'turn_right', 'blink', 'smile', 'look_up', 'look_down'],
      shutdownTimeoutMs: 20_000,
      metricsToken: undefined,
      retentionEveryMinutes: 60,
      retentionQuietMs: 60_000,
      retentionRewriteWithinMs: 24 * 60 * 60 * 1000,
      retentionCheckMs: 15_000,
    });
  });

  it('reads every variable', () => {
    const config = configFromEnv(
      {
        PORT: '0',
        HOST: '0.0.0.0',
        DATA_DIR: 'memory://',
        DATABASE_URL: 'postgres://u@h/db',
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DIST_DIR: '/abs/dist',
        PUBLIC_DIR: 'pub',
        SERVE_SPA: 'false',
        DEV_MAILBOX: '1',
        TRUST_PROXY: 'true',
        ACCESS_TOKEN_TTL: '20',
        PUBLIC_URL: 'https://app.example.com/, https://Demo.Example.com:8443',
        PUBLIC_PORT: '8080',
        LIVENESS_ACTIONS: ' turn_left,blink, turn_right,blink ',
        SHUTDOWN_TIMEOUT: '2.5',
        METRICS_TOKEN: 'c2NyYXBlLW1lLWlmLXlvdS1jYW4=',
        RETENTION_EVERY_MINUTES: '0',
        RETENTION_QUIET_SECONDS: '300',
        RETENTION_REWRITE_WITHIN_HOURS: '6',
        RETENTION_CHECK_SECONDS: '30',
      },
      '/srv',
    );
    expect(config).toEqual({
      port: 0,
      host: '0.0.0.0',
      dataDir: 'memory://',
      databaseUrl: 'postgres://u@h/db',
      nodeEnv: 'production',
      logLevel: 'silent',
      distDir: '/abs/dist',
      publicDir: '/srv/pub',
      serveSpa: false,
      devMailbox: true,
      trustProxy: true,
      accessTokenTtl: 20,
      publicUrls: ['https://app.example.com', 'https://demo.example.com:8443'],
      publicPort: 8080,
      livenessActions: ['turn_left', 'blink', 'turn_right'],
      shutdownTimeoutMs: 2500,
      metricsToken: 'c2NyYXBlLW1lLWlmLXlvdS1jYW4=',
      retentionEveryMinutes: 0,
      retentionQuietMs: 300_000,
      retentionRewriteWithinMs: 6 * 60 * 60 * 1000,
      retentionCheckMs: 30_000,
    });
  });

  it('refuses nonsense instead of guessing', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => configFromEnv({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => configFromEnv({ SERVE_SPA: 'maybe' })).toThrow(/SERVE_SPA/);
    expect(() => configFromEnv({ DEV_MAILBOX: 'please' })).toThrow(/DEV_MAILBOX/);
    expect(() => configFromEnv({ ACCESS_TOKEN_TTL: '5' })).toThrow(/ACCESS_TOKEN_TTL/);
    expect(() => configFromEnv({ ACCESS_TOKEN_TTL: 'soon' })).toThrow(/ACCESS_TOKEN_TTL/);
    expect(() => configFromEnv({ PUBLIC_URL: 'https://app.example.com/portal' })).toThrow(/PUBLIC_URL/);
    expect(() => configFromEnv({ PUBLIC_URL: 'app.example.com' })).toThrow(/PUBLIC_URL/);
    expect(() => configFromEnv({ PUBLIC_URL: 'ftp://app.example.com' })).toThrow(/PUBLIC_URL/);
    expect(() => configFromEnv({ PUBLIC_PORT: 'dev' })).toThrow(/PUBLIC_PORT/);
    expect(() => configFromEnv({ SHUTDOWN_TIMEOUT: 'later' })).toThrow(/SHUTDOWN_TIMEOUT/);
    expect(() => configFromEnv({ LIVENESS_ACTIONS: 'turn_left,nod' })).toThrow(/LIVENESS_ACTIONS.*nod/);
    expect(() => configFromEnv({ LIVENESS_ACTIONS: 'blink' })).toThrow(/at least two/);
    expect(() => configFromEnv({ LIVENESS_ACTIONS: 'blink,blink' })).toThrow(/at least two/);
    expect(() => configFromEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => configFromEnv({ RETENTION_EVERY_MINUTES: 'hourly' })).toThrow(/RETENTION_EVERY_MINUTES/);
    expect(() => configFromEnv({ RETENTION_EVERY_MINUTES: '-5' })).toThrow(/RETENTION_EVERY_MINUTES/);
    expect(() => configFromEnv({ METRICS_TOKEN: 'sixteen chars with spaces' })).toThrow(/METRICS_TOKEN/);
    // A quiet of 0 s would rewrite the tables under load; a limit past a week breaks what a DPO is told.
    expect(() => configFromEnv({ RETENTION_QUIET_SECONDS: '0' })).toThrow(/RETENTION_QUIET_SECONDS/);
    expect(() => configFromEnv({ RETENTION_QUIET_SECONDS: '1m' })).toThrow(/RETENTION_QUIET_SECONDS/);
    expect(() => configFromEnv({ RETENTION_REWRITE_WITHIN_HOURS: '169' })).toThrow(
      /RETENTION_REWRITE_WITHIN_HOURS/,
    );
    expect(() => configFromEnv({ RETENTION_REWRITE_WITHIN_HOURS: '1.5' })).toThrow(
      /RETENTION_REWRITE_WITHIN_HOURS/,
    );
    expect(() => configFromEnv({ RETENTION_CHECK_SECONDS: '0' })).toThrow(/RETENTION_CHECK_SECONDS/);
    expect(() => configFromEnv({ RETENTION_CHECK_SECONDS: 'often' })).toThrow(/RETENTION_CHECK_SECONDS/);
  });
});
