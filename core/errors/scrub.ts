/**
 * Removes a client's own secret values (client secret, API key) from an error before it leaves the client. The
 * error classes already strip tokens, Basic credentials and `secret=…` pairs by pattern; only the transport knows
 * the exact values, and a service or `fetch` implementation could echo one in free text.
 */
import type { Redactor } from '../redact.ts';
import { PartnerLearningError } from './base.ts';

/**
 * @param error Anything thrown inside the transport. Only the client's own errors are touched: an abort reason the
 *   caller passed in comes back as it was.
 * @param redactor Knows the client's secret values.
 * @returns The same error, its message, stack, URL and cause chain redacted.
 * @example
 * request(...).catch((error) => { throw scrubError(error, redactor); });
 */
export function scrubError<E>(error: E, redactor: Redactor): E {
  if (!(error instanceof PartnerLearningError)) return error;
  error.message = redactor.text(error.message);
  if (error.stack !== undefined) error.stack = redactor.text(error.stack);
  if (error.url !== undefined) Object.defineProperty(error, 'url', { value: redactor.url(error.url) });
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth += 1, cause = cause.cause) {
    cause.message = redactor.text(cause.message);
    if (cause.stack !== undefined) cause.stack = redactor.text(cause.stack);
  }
  return error;
}
