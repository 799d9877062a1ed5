import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * A success status whose answer cannot be used: not JSON, larger than `maxResponseBytes`, nested deeper than any
 * record of the service, or not the record the endpoint returns (an empty body, `null`, an array). The reading was
 * stopped there; the call is not retried (the same address would answer the same way).
 */
export class InvalidResponseError extends PartnerLearningError {
  override readonly name = 'InvalidResponseError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.INVALID_RESPONSE, init, false);
  }
}
