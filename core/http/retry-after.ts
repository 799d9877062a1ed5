/**
 * Parses a `Retry-After` header: delay seconds (`120`) or an HTTP-date.
 *
 * @param value The header value, if any.
 * @param now The current time, epoch milliseconds (for HTTP-dates).
 * @returns The wait in milliseconds (never negative), or `undefined` when absent or unparseable.
 * @example
 * parseRetryAfter('2', Date.now()); // 2000
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
