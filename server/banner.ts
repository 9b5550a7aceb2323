import { SEED_ACCOUNTS } from './auth/accounts';
import { configFromEnv } from './config';
import { devRoutesPolicy } from './dev-routes';

/** What npm start says once the portal is ready: where to open it and, outside production, as whom to sign in. */
export function readyBanner(env: NodeJS.ProcessEnv = process.env): string[] {
  const config = configFromEnv(env);
  const port = env.PORT ?? 8080;
  const lines = env.PUBLIC_URL
    ? [`Sign-in answers only at PUBLIC_URL: ${env.PUBLIC_URL}`]
    : [`Tenants: gambling → http://localhost:${port}   demo → http://demo.localhost:${port}`];
  if (config.nodeEnv === 'production') return lines;
  lines.push('Demo accounts in every tenant (the password is the username):');
  for (const account of SEED_ACCOUNTS) {
    lines.push(
      `  ${account.username.padEnd(15)} ${account.roles.join(', ')}${account.enrolled ? ' (enrolled)' : ''}`,
    );
  }
  if (devRoutesPolicy(config) !== 'off') {
    lines.push(
      `Mailbox (password reset links, from this machine only): http://localhost:${port}/dev/mailbox`,
    );
  }
  return lines;
}
