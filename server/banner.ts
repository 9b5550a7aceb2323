import { SEED_ACCOUNTS } from './auth/accounts';
import { configFromEnv } from './config';
import { devRoutesPolicy } from './dev-routes';

/**
 * What npm start says once the portal is ready: where to open it and, outside production, as whom to sign in.
 * `lanUrl`: npm run start:lan's address, then the only origin sign-in answers at (server/start-lan.ts prints its QR).
 */
export function readyBanner(env: NodeJS.ProcessEnv = process.env, lanUrl?: string): string[] {
  const config = configFromEnv(env);
  const port = lanUrl ? new URL(lanUrl).port : (env.PORT ?? 8080);
  const lines = lanUrl
    ? [`Sign-in answers only at ${lanUrl} (an IP address opens the tenant gambling).`]
    : env.PUBLIC_URL
      ? [`Sign-in answers only at PUBLIC_URL: ${env.PUBLIC_URL}`]
      : [`Tenants: gambling → http://localhost:${port}   demo → http://demo.localhost:${port}`];
  // Under start:lan the server listens on the LAN address unless HOST says otherwise.
  if (lanUrl && !env.HOST) config.host = new URL(lanUrl).hostname;
  if (config.nodeEnv === 'production') return lines;
  lines.push('Demo accounts in every tenant (the password is the username):');
  for (const account of SEED_ACCOUNTS) {
    lines.push(
      `  ${account.username.padEnd(15)} ${account.roles.join(', ')}${account.enrolled ? ' (enrolled)' : ''}`,
    );
  }
  if (devRoutesPolicy(config) !== 'off') {
    lines.push(
      `Mailbox (password reset links, from this machine only): ${lanUrl ? 'https' : 'http'}://localhost:${port}/dev/mailbox`,
    );
  }
  return lines;
}
