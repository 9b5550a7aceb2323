// Off the main thread: the API's answers checked against the contract's arktype schemas (src/api/schemas.ts), so
// that arktype starts, builds its schemas and runs beside the page instead of in its first long task.
import { type CheckResult, checkAnswer, type SchemaName } from './schemas';

export type CheckRequest = { id: number; name: SchemaName; value: unknown };
export type CheckResponse = CheckResult & { id: number };

self.onmessage = (event: MessageEvent<CheckRequest>) => {
  const { id, name, value } = event.data;
  let response: CheckResponse;
  try {
    response = { id, ...checkAnswer(name, value) };
  } catch (error) {
    response = {
      id,
      ok: false,
      issues: [{ message: error instanceof Error ? error.message : String(error) }],
    };
  }
  self.postMessage(response);
};
