import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * No answer within `timeoutMs` (per attempt).
 */
export class TimeoutError extends PartnerLearningError {
  override readonly name = 'TimeoutError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.TIMEOUT, init, true);
  }
}
