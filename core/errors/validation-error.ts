import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/** One field-level problem: the property (dotted path, as the service names it) and what is wrong with it. */
export interface Violation {
  propertyPath: string;
  message: string;
}

/**
 * Invalid input: found locally before any request (origin `client`) or the service's `validation_failed` 400 (origin `api`). See `violations`.
 */
export class ValidationError extends PartnerLearningError {
  override readonly name = 'ValidationError' as const;
  /** Every field-level problem found (locally, or the service's `violations`). */
  readonly violations: Violation[];

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit & { violations?: Violation[] }) {
    super(ErrorCode.VALIDATION, init, false);
    this.violations = init.violations ?? [];
  }
}
