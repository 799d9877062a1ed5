import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 5xx from the service (after all retries). Check whether `GET /ping` is healthy to tell an outage from one struggling endpoint.
 */
export class ServerError extends PartnerLearningError {
  override readonly name = 'ServerError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.SERVER, init, true);
  }
}
