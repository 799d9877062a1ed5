import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 409: the request conflicts with the resource's state, e.g. `POST /modules/{id}/complete` on a SCORM module.
 */
export class ConflictError extends PartnerLearningError {
  override readonly name = 'ConflictError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.CONFLICT, init, false);
  }
}
