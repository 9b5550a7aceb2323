import type { DoneActorEvent, ErrorActorEvent } from 'xstate';

// Named actions and guards read the done and error events of invoked actors, which a machine's own event
// union does not list.

/** What the invoked actor that settled returned. */
export const outputOf = <T>(event: unknown): T => (event as DoneActorEvent<T>).output;

/** What the invoked actor that failed threw. */
export const errorOf = (event: unknown): unknown => (event as ErrorActorEvent).error;

/** The `code` of what the invoked actor that failed threw, when it has one. */
export const errorCodeOf = (event: unknown): unknown =>
  (errorOf(event) as { code?: unknown } | null | undefined)?.code;
