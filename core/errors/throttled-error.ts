import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 429 `Too Many Requests`: the usage plan's rate was exceeded and stayed exceeded through every retry.
 */
export class ThrottledError extends PartnerLearningError {
  override readonly name = 'ThrottledError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.THROTTLED, init, true);
  }
}
