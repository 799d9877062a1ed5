/**
 * The pipeline's logging: the user's optional hook behind a redactor. A logger that throws never breaks a request.
 */
import type { Logger, LogLevel } from './types/options.ts';
import type { Redactor } from './redact.ts';

/** Level-named logging functions; each redacts its message and fields before calling the hook. */
export interface Log {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Levels in order: a line is passed on when its rank is at least the minimum's. */
export const LOG_LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Every level, lowest first (what `logLevel` may be). */
export const LOG_LEVELS = Object.keys(LOG_LEVEL_RANK) as [LogLevel, ...LogLevel[]];

/**
 * Wraps a logger hook so nothing secret reaches it.
 *
 * @param logger The user's hook; when absent every call is a no-op.
 * @param redactor Knows the client's secrets (see `createRedactor`).
 * @param minimum The lowest level passed on (default `debug`): lines below it are dropped before they are redacted,
 *   which is most of a busy client's logging cost (two debug lines a request).
 * @returns A {@link Log}.
 */
export function createLog(logger: Logger | undefined, redactor: Redactor, minimum: LogLevel = 'debug'): Log {
  const floor = LOG_LEVEL_RANK[minimum];
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (!logger || LOG_LEVEL_RANK[level] < floor) return;
    try {
      const safeFields = fields === undefined ? undefined : (redactor.value(fields) as Record<string, unknown>);
      logger(level, redactor.text(message), safeFields);
    } catch {
      // A broken logger must not turn a successful request into a failure.
    }
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
