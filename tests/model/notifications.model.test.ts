import { describe, expect, it } from 'vitest';
import { notificationsMachine } from '../../machines/notifications.machine';
import { coverMachine, type ModelSpec } from './harness';

const notifications: ModelSpec<typeof notificationsMachine> = {
  machine: notificationsMachine,
  events: (snapshot) => [
    { type: 'notify', level: 'info', messageId: 'x' },
    { type: 'notify', level: 'error', text: 'boom' },
    { type: 'errors.clear' },
    ...snapshot.context.notices.flatMap((n) => [
      { type: 'notice.expired' as const, id: n.id },
      { type: 'notice.dismiss' as const, id: n.id },
    ]),
  ],
  // The levels shown, in order: enough to tell every mode apart without growing without end.
  serialize: (s) => ({ value: s.value, levels: s.context.notices.map((n) => n.level).slice(0, 2) }),
  provide: () => notificationsMachine,
};

describe('notifications machine (generated paths)', () => {
  it('covers every transition on a real actor', async () => {
    expect((await coverMachine(notifications)).missing).toEqual([]);
  });
});
