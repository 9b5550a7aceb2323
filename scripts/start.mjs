// npm start: build the SPA if needed, then serve everything (SPA, tenant assets, API, identity provider,
// database) on PORT, and say where and as whom to sign in.
import { register } from 'tsx/esm/api';
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded();
register();
const { main } = await import('../server/main.ts');
await main();
const port = process.env.PORT ?? 8080;
console.log(`Tenants: gambling → http://localhost:${port}   demo → http://demo.localhost:${port}`);
if (process.env.NODE_ENV !== 'production') {
  const { SEED_ACCOUNTS } = await import('../server/auth/accounts.ts');
  console.log('Demo accounts in every tenant (the password is the username):');
  for (const account of SEED_ACCOUNTS) {
    console.log(
      `  ${account.username.padEnd(15)} ${account.roles.join(', ')}${account.enrolled ? ' (enrolled)' : ''}`,
    );
  }
  console.log(`Mailbox (password reset links): http://localhost:${port}/dev/mailbox`);
}
