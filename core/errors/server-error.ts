import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 5xx from the service (after all retries). Check whether `GET /ping` is healthy to tell an outage from one struggling endpoint.
 */
export class ServerError extends PartnerLearningError {
  override readonly name = 'ServerError' as const;
  /** The wait the service asked for (`Retry-After`, e.g. on a 503), when it sent one. */
  readonly retryAfterMs?: number;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit & { retryAfterMs?: number }) {
    super(ErrorCode.SERVER, init, true);
    this.retryAfterMs = init.retryAfterMs;
  }
}
