/**
 * The entries' logger: one JSON line per event on the console (what Workers Logs, Deno Deploy and container logs
 * index). The relay redacts secrets before anything reaches it.
 */
import type { Logger, LogLevel } from '../core/index.ts';

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * @param minimum The lowest level printed (default `info`; `RELAY_LOG_LEVEL` in the entries).
 * @returns A logger for `createRelay({ logger })`.
 * @example
 * const logger = consoleLogger('warn');
 */
export function consoleLogger(minimum: unknown = 'info'): Logger {
  const floor = RANK[minimum as LogLevel] ?? RANK.info;
  return (level, message, fields) => {
    if (RANK[level] < floor) return;
    const line = JSON.stringify({ level, message, ...fields });
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.log(line);
  };
}
