import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * The request got no HTTP answer (DNS, connection refused or reset, TLS).
 */
export class NetworkError extends PartnerLearningError {
  override readonly name = 'NetworkError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.NETWORK, init, true);
  }
}
