import type { EnvName } from './types.ts';

/** One served request, as `GET /_emulator/requests` lists it. */
export interface RequestLogEntry {
  method: string;
  /** URL pathname, e.g. `/sandbox/v1/courses`. */
  path: string;
  /** The query string without `?` (empty when none). */
  query: string;
  /** 0 when the connection was dropped by a fault. */
  status: number;
  env: EnvName | null;
  /** Emulator clock when the request arrived, ISO 8601. */
  at: string;
}

/** Oldest first; bounded so a long benchmark cannot exhaust memory. */
export interface RequestLog {
  add(entry: RequestLogEntry): void;
  list(): RequestLogEntry[];
  clear(): void;
}

/** Entries kept before the oldest are dropped. */
export const REQUEST_LOG_CAP = 100_000;

/** @returns an empty bounded request log. */
export function createRequestLog(): RequestLog {
  let entries: RequestLogEntry[] = [];
  return {
    add(entry) {
      entries.push(entry);
      // Trim in batches so appends stay O(1) amortized.
      if (entries.length > REQUEST_LOG_CAP * 1.1) entries = entries.slice(entries.length - REQUEST_LOG_CAP);
    },
    list: () => entries.slice(Math.max(0, entries.length - REQUEST_LOG_CAP)),
    clear() {
      entries = [];
    },
  };
}
