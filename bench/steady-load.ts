// A steady load, as phones make it: one request every 1/rate seconds over a pool of keep-alive connections, each
// timed from the moment it is sent to the end of its answer.
//
// autocannon, used before, limits a rate per connection per second: each of its connections sends its share of the
// second back to back as soon as the second begins, then waits for the next one, so 200 requests a second arrived
// as one burst of 200 at the start of every second, and the last of them waited behind the others. Its percentiles
// also add the samples it assumes a slower server made it skip, at an interval of 1/rate rounded up to 1 ms, so a
// 15 ms answer counted as fifteen. The credential read measured 3.5–5 ms (p50) sent one at a time and 12–16 ms through
// autocannon at 25–200 requests a second on the same quiet machine (docs/operations.md).
import { Agent, request } from 'node:http';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Requests a second, spread evenly. */
  rate: number;
  /** How long to send for; `stop()` ends sooner. */
  seconds: number;
  /** At most this many requests in flight: a server slower than the rate makes the next ones wait, and that counts. */
  connections?: number;
  timeoutMs?: number;
  /** Each answer as it ends: when (epoch ms), how long it took (ms), its status (0: no answer). */
  onResponse?: (at: number, ms: number, status: number) => void;
}

export interface LoadResult {
  requests: { total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  /** Connection errors. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** How late the generator sent (ms, p99): its own delay on a busy machine, not the server's. */
  sendLagP99: number;
}

/** The nearest-rank percentile of `values` (0 when empty), to a tenth of a millisecond. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] as number) * 10) / 10;
}

export function steadyLoad(options: LoadOptions): {
  done: Promise<LoadResult>;
  stop: () => Promise<LoadResult>;
} {
  const { url, headers, rate, seconds, connections = 10, timeoutMs = 10_000, onResponse } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const interval = 1000 / rate;
  const latencies: number[] = [];
  const lags: number[] = [];
  let errors = 0;
  let timeouts = 0;
  const statuses: Record<string, number> = {};
  let inFlight = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let settle: () => void = () => {};
  const drained = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const send = () => {
    inFlight++;
    const sentAt = performance.now();
    // One end per request, whichever comes first (an answer, or an error or timeout before it).
    let over = false;
    const end = () => {
      if (over) return;
      over = true;
      inFlight--;
      if (stopped && inFlight === 0) settle();
    };
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (over) return;
          const ms = performance.now() - sentAt;
          latencies.push(ms);
          const status = res.statusCode ?? 0;
          statuses[status] = (statuses[status] ?? 0) + 1;
          onResponse?.(Date.now(), ms, status);
          end();
        });
      },
    );
    req.setTimeout(timeoutMs, () => {
      if (!over) timeouts++;
      req.destroy(new Error('timeout'));
    });
    req.on('error', (error) => {
      if (over) return;
      if (error.message !== 'timeout') errors++;
      onResponse?.(Date.now(), performance.now() - sentAt, 0);
      end();
    });
    req.end();
  };

  let resolveDone: (result: LoadResult) => void = () => {};
  const done = new Promise<LoadResult>((resolve) => {
    resolveDone = resolve;
  });
  let result: Promise<LoadResult> | undefined;
  const finish = (): Promise<LoadResult> => {
    if (result) return result;
    stopped = true;
    if (timer) clearTimeout(timer);
    if (inFlight === 0) settle();
    result = drained.then(() => {
      agent.destroy();
      return {
        requests: { total: latencies.length + errors + timeouts },
        latency: {
          p50: percentile(latencies, 50),
          p90: percentile(latencies, 90),
          p99: percentile(latencies, 99),
          max: percentile(latencies, 100),
        },
        errors,
        timeouts,
        non2xx: Object.entries(statuses)
          .filter(([status]) => !status.startsWith('2'))
          .reduce((sum, [, count]) => sum + count, 0),
        statuses,
        sendLagP99: percentile(lags, 99),
      };
    });
    void result.then(resolveDone);
    return result;
  };

  // Each request at its own time, start + i/rate, however late the timer fires (a late timer sends what is due).
  const start = performance.now();
  const last = start + seconds * 1000;
  let next = start;
  const tick = () => {
    const now = performance.now();
    while (!stopped && next <= now && next < last) {
      lags.push(now - next);
      send();
      next += interval;
    }
    if (stopped || next >= last) {
      void finish();
      return;
    }
    timer = setTimeout(tick, Math.max(0, next - performance.now()));
  };
  tick();
  return { done, stop: finish };
}
