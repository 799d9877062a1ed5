import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 403 about user status: the `X-User-ID` learner is deactivated. Reactivate the learner (PATCH status `active`) first.
 */
export class InactiveLearnerError extends PartnerLearningError {
  override readonly name = 'InactiveLearnerError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.INACTIVE_LEARNER, init, false);
  }
}
