import { assign, enqueueActions, setup } from 'xstate';

// Spec §4: notifications last 2 s (info, success) and 5 s (warning, error); every navigation clears the
// displayed error notifications (errors and warnings: both report something that went wrong).
export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';
/**
 * `fallback`: the server's text, shown (in a sentence of the person's language) when messageId has no words.
 * `reference`: the request id of an unexpected error, shown in small print for the person to quote to support.
 */
export type NoticeContent = (
  | { messageId: string; values?: Record<string, string>; fallback?: string }
  | { text: string }
) & { reference?: string };
export type Notice = { id: string; level: NoticeLevel } & NoticeContent;

export type NotificationsEvent =
  | ({ type: 'notify'; level: NoticeLevel } & NoticeContent)
  | { type: 'notice.dismiss'; id: string }
  | { type: 'notice.expired'; id: string }
  | { type: 'errors.clear' };

const isErrorLevel = (level: NoticeLevel) => level === 'error' || level === 'warning';

/**
 * What a notice says, and at what level: two notices alike in these are one (not in the reference: each failed
 * request has its own).
 */
const WORDS = ['level', 'text', 'messageId', 'fallback', 'values'] as const;
const sameNotice = (shown: Notice, event: { level: NoticeLevel } & NoticeContent) =>
  WORDS.every(
    (key) =>
      JSON.stringify((shown as Record<string, unknown>)[key]) ===
      JSON.stringify((event as Record<string, unknown>)[key]),
  );

const delayOf = (level: NoticeLevel) =>
  level === 'info' || level === 'success' ? 'notifyShort' : 'notifyLong';

export const notificationsMachine = setup({
  types: {
    context: {} as { notices: Notice[]; nextId: number },
    events: {} as NotificationsEvent,
  },
  actions: {
    // Each notice schedules its own expiry as a delayed event that can be cancelled by its id.
    addNotice: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'notify') return;
      const { type: _type, ...content } = event;
      const id = `n${context.nextId}`;
      enqueue.assign({ notices: [...context.notices, { id, ...content }], nextId: context.nextId + 1 });
      enqueue.raise({ type: 'notice.expired', id }, { id, delay: delayOf(event.level) });
    }),
    // Two calls failing the same way at once (a visit and its QR, with no connection) say it once: a notice that
    // says what one shown already says takes its place, shown anew (announced again, its full time from now), so
    // that a retry failing as before is seen to have been tried.
    dropSameNotice: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'notify') return;
      const same = context.notices.filter((notice) => sameNotice(notice, event));
      if (same.length === 0) return;
      for (const notice of same) enqueue.cancel(notice.id);
      enqueue.assign({ notices: context.notices.filter((notice) => !same.includes(notice)) });
    }),
    removeNotice: assign({
      notices: ({ context, event }) =>
        'id' in event ? context.notices.filter((notice) => notice.id !== event.id) : context.notices,
    }),
    cancelExpiry: enqueueActions(({ event, enqueue }) => {
      if ('id' in event) enqueue.cancel(event.id);
    }),
    removeErrorNotices: enqueueActions(({ context, enqueue }) => {
      for (const notice of context.notices) if (isErrorLevel(notice.level)) enqueue.cancel(notice.id);
      enqueue.assign({ notices: context.notices.filter((notice) => !isErrorLevel(notice.level)) });
    }),
  },
  guards: {
    isLastNotice: ({ context, event }) =>
      'id' in event && context.notices.length === 1 && context.notices[0]?.id === event.id,
    onlyErrorsShown: ({ context }) => context.notices.every((notice) => isErrorLevel(notice.level)),
  },
  delays: {
    notifyShort: 2000,
    notifyLong: 5000,
  },
}).createMachine({
  id: 'notifications',
  description:
    'The notifications (toasts) of the portal (spec §4: "Notifications last 2 s (info, success) and 5 s (warning, error)"; spec §2: "Every navigation clears all displayed error notifications").',
  context: { notices: [], nextId: 1 },
  initial: 'idle',
  states: {
    idle: {
      description: 'No notification shows.',
      on: {
        notify: { target: 'showing', actions: 'addNotice' },
      },
    },
    showing: {
      description:
        'One or more notifications show, each until it expires (2 s or 5 s) or the person closes it.',
      on: {
        notify: { actions: ['dropSameNotice', 'addNotice'] },
        'notice.expired': [
          { guard: 'isLastNotice', target: 'idle', actions: 'removeNotice' },
          { actions: 'removeNotice' },
        ],
        'notice.dismiss': [
          { guard: 'isLastNotice', target: 'idle', actions: ['cancelExpiry', 'removeNotice'] },
          { actions: ['cancelExpiry', 'removeNotice'] },
        ],
        'errors.clear': [
          { guard: 'onlyErrorsShown', target: 'idle', actions: 'removeErrorNotices' },
          { actions: 'removeErrorNotices' },
        ],
      },
    },
  },
});
