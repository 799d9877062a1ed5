import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 429 `Too Many Requests`: the usage plan's rate was exceeded and stayed exceeded through every retry.
 */
export class ThrottledError extends PartnerLearningError {
  override readonly name = 'ThrottledError' as const;
  /** The wait the service asked for (`Retry-After`), when it sent one. */
  readonly retryAfterMs?: number;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit & { retryAfterMs?: number }) {
    super(ErrorCode.THROTTLED, init, true);
    this.retryAfterMs = init.retryAfterMs;
  }
}
