import { currentRequestId } from './request-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, msg: string, fields?: LogFields): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function isLogLevel(value: string): value is LogLevel {
  return value in ORDER;
}

export interface LoggerOptions {
  nodeEnv?: string | undefined;
  level?: string | undefined;
  write?: (line: string) => void;
}

/**
 * One line's JSON: the request the code works for names itself (reqId) unless the fields name one, so that a line
 * written deep inside a handler or the engine's queue ties to its request's line and to the problem the person saw.
 */
function lineOf(level: LogLevel, msg: string, fields: LogFields | undefined): string {
  const reqId = currentRequestId();
  const context = reqId !== undefined && fields?.reqId === undefined ? { reqId } : undefined;
  return `${JSON.stringify({ time: new Date().toISOString(), level, msg, ...context, ...fields })}\n`;
}

// One JSON object per line on stdout so log shippers need no parser configuration.
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level?.toLowerCase();
  if (options.nodeEnv === 'test' || level === 'silent') return silentLogger;
  const min = ORDER[level !== undefined && isLogLevel(level) ? level : 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  return {
    log(lvl, msg, fields) {
      if (ORDER[lvl] < min) return;
      write(lineOf(lvl, msg, fields));
    },
  };
}

export const silentLogger: Logger = { log() {} };

/**
 * An error nobody planned for (a handler's bug, an error on a request's stream): logged at error level. A silent
 * logger (tests, LOG_LEVEL=silent) would hide it, so it then goes to stderr as one JSON line, where a test run shows
 * it beside the failing test; and a logger that itself fails does not turn the report into a second failure.
 */
export function logUnexpected(logger: Logger, msg: string, fields: LogFields): void {
  const line = () => lineOf('error', msg, fields);
  if (logger === silentLogger) {
    process.stderr.write(line());
    return;
  }
  try {
    logger.log('error', msg, fields);
  } catch {
    process.stderr.write(line());
  }
}

/** The error as a log field: its stack when it has one. */
export const errorField = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);
