import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * The call's overall deadline (`deadlineMs`) passed: attempts, backoff waits and reading the answer together took
 * longer. The request under way was cancelled; nothing is retried after it.
 */
export class DeadlineError extends PartnerLearningError {
  override readonly name = 'DeadlineError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.DEADLINE, init, false);
  }
}
