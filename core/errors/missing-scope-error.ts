import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 403 naming a scope or permission: the token lacks the scope this operation needs (e.g. a write with a read-only client).
 */
export class MissingScopeError extends PartnerLearningError {
  override readonly name = 'MissingScopeError' as const;
  /** The scope the service said is missing, when it named one (e.g. `partner-api/write`). */
  readonly scope?: string;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit & { scope?: string }) {
    super(ErrorCode.MISSING_SCOPE, init, false);
    this.scope = init.scope;
  }
}
