import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 404: the resource does not exist or belongs to another partner (the service does not tell these apart).
 */
export class NotFoundError extends PartnerLearningError {
  override readonly name = 'NotFoundError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.NOT_FOUND, init, false);
  }
}
