import { assign, fromPromise, setup } from 'xstate';
import type { AccountProfile } from '../contract/api/accounts';
import { outputOf } from './actor-events';

// UserProfile (spec §2 profile; §6 get_users_me, get_all_data_me): the person's data, read from their user record,
// and "download my data", which saves everything stored about them as one zip.

export interface AccountProfileContext {
  profile: AccountProfile | null;
}

export type AccountProfileEvent = { type: 'profile.retry' } | { type: 'data.export' };

export const accountProfileMachine = setup({
  types: {
    context: {} as AccountProfileContext,
    events: {} as AccountProfileEvent,
  },
  actors: {
    // Placeholders: src/actors/account.ts provides the calls (src/api/accounts).
    loadProfile: fromPromise<AccountProfile>(async () => {
      throw new Error('loadProfile is provided by src/actors/account.ts');
    }),
    /** Fetches the zip and hands it to the browser as a download. */
    exportData: fromPromise<void>(async () => {
      throw new Error('exportData is provided by src/actors/account.ts');
    }),
  },
  actions: {
    storeProfile: assign({ profile: ({ event }) => outputOf<AccountProfile>(event) }),
  },
}).createMachine({
  id: 'accountProfile',
  description:
    'UserProfile (spec §2, §6 get_users_me and get_all_data_me): the personal data of the user record, "download my data" (one zip with the user record, onboarding, credentials, visits, audit entries and images), the language saved to the account, the credential reset and the way to DeleteAccount.',
  context: { profile: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'UserProfile: a spinner while the profile loads.',
      meta: { screen: 'UserProfile' },
      tags: ['busy'],
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: { target: 'ready', actions: 'storeProfile' },
        onError: 'failed',
      },
    },
    failed: {
      description: 'UserProfile: the profile could not be loaded; a Retry button.',
      meta: { screen: 'UserProfile' },
      tags: ['error'],
      on: { 'profile.retry': 'loading' },
    },
    ready: {
      description:
        'UserProfile: personal data, language, download my data, reset credentials, delete account.',
      meta: { screen: 'UserProfile' },
      initial: 'idle',
      states: {
        idle: {
          description: 'Nothing downloaded yet.',
          on: { 'data.export': 'exporting' },
        },
        exporting: {
          description: '"Download my data" is busy: the zip is being prepared.',
          tags: ['exporting'],
          invoke: { id: 'exportData', src: 'exportData', onDone: 'exported', onError: 'exportFailed' },
        },
        exported: {
          description: 'The zip was saved; it may be downloaded again.',
          on: { 'data.export': 'exporting' },
        },
        exportFailed: {
          description: 'The zip could not be prepared; try again.',
          on: { 'data.export': 'exporting' },
        },
      },
    },
  },
});
