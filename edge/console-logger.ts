/**
 * The entries' logger: one JSON line per event on the console (what Workers Logs, Deno Deploy and container logs
 * index). The relay redacts secrets before anything reaches it.
 */
import type { Logger, LogLevel } from '../core/index.ts';
import { LOG_LEVEL_RANK as RANK } from '../core/protocol.ts';

/**
 * @param setting `RELAY_LOG_LEVEL` as the entry found it.
 * @returns The level it names, or `info` when it names none.
 */
export function logLevelOf(setting: unknown): LogLevel {
  return typeof setting === 'string' && Object.hasOwn(RANK, setting) ? (setting as LogLevel) : 'info';
}

/**
 * @param minimum The lowest level printed (default `info`; `RELAY_LOG_LEVEL` in the entries).
 * @returns A logger for `createRelay({ logger })`; give the relay the same level as `logLevel`, so it does not
 *   build and redact lines this logger drops.
 * @example
 * const level = logLevelOf(process.env.RELAY_LOG_LEVEL);
 * createRelay({ settings: process.env, logger: consoleLogger(level), logLevel: level });
 */
export function consoleLogger(minimum: unknown = 'info'): Logger {
  const floor = RANK[logLevelOf(minimum)];
  return (level, message, fields) => {
    if (RANK[level] < floor) return;
    const line = JSON.stringify({ level, message, ...fields });
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.log(line);
  };
}
