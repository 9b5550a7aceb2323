import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { notificationsMachine } from './notifications.machine';

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(notificationsMachine, { clock }).start();
  const levels = () => actor.getSnapshot().context.notices.map((n) => n.level);
  return { clock, actor, levels };
}

describe('notification lifetimes', () => {
  it('keeps info and success for 2 s', () => {
    const { clock, actor, levels } = start();
    actor.send({ type: 'notify', level: 'info', messageId: 'a' });
    actor.send({ type: 'notify', level: 'success', messageId: 'b' });
    clock.increment(1999);
    expect(levels()).toEqual(['info', 'success']);
    clock.increment(1);
    expect(levels()).toEqual([]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('keeps warnings and errors for 5 s', () => {
    const { clock, actor, levels } = start();
    actor.send({ type: 'notify', level: 'warning', text: 'w' });
    actor.send({ type: 'notify', level: 'error', text: 'e' });
    clock.increment(4999);
    expect(levels()).toEqual(['warning', 'error']);
    clock.increment(1);
    expect(levels()).toEqual([]);
  });

  it('navigation clears errors and warnings but keeps the rest', () => {
    const { actor, levels } = start();
    actor.send({ type: 'notify', level: 'error', text: 'e' });
    actor.send({ type: 'notify', level: 'success', messageId: 's' });
    actor.send({ type: 'notify', level: 'warning', text: 'w' });
    actor.send({ type: 'errors.clear' });
    expect(levels()).toEqual(['success']);
  });

  it('a dismissed notice does not expire a later one', () => {
    const { clock, actor, levels } = start();
    actor.send({ type: 'notify', level: 'info', messageId: 'a' });
    actor.send({ type: 'notice.dismiss', id: 'n1' });
    clock.increment(1000);
    actor.send({ type: 'notify', level: 'info', messageId: 'b' });
    clock.increment(1500);
    expect(levels()).toEqual(['info']);
  });

  it('the same notice twice shows once, anew, for its whole time from the second', () => {
    const { clock, actor, levels } = start();
    actor.send({ type: 'notify', level: 'error', messageId: 'common.http.network' });
    clock.increment(3000);
    actor.send({ type: 'notify', level: 'error', messageId: 'common.http.network', reference: 'r2' });
    expect(levels()).toEqual(['error']);
    // A notice of its own (announced again), with the latest request's reference.
    expect(actor.getSnapshot().context.notices).toEqual([
      { id: 'n2', level: 'error', messageId: 'common.http.network', reference: 'r2' },
    ]);
    clock.increment(4999);
    expect(levels()).toEqual(['error']);
    clock.increment(1);
    expect(levels()).toEqual([]);
  });

  it('notices with other words or values are each shown', () => {
    const { actor, levels } = start();
    actor.send({ type: 'notify', level: 'error', messageId: 'a', values: { n: '1' } });
    actor.send({ type: 'notify', level: 'error', messageId: 'a', values: { n: '2' } });
    actor.send({ type: 'notify', level: 'error', text: 'a' });
    actor.send({ type: 'notify', level: 'warning', text: 'a' });
    expect(levels()).toEqual(['error', 'error', 'error', 'warning']);
  });
});
