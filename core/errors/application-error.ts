import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * A request the API application refused that no narrower class covers (a `hydra:Error` with 400, 415, …). Fix the request; retrying it unchanged fails the same way.
 */
export class ApplicationError extends PartnerLearningError {
  override readonly name = 'ApplicationError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.APPLICATION, init, false);
  }
}
