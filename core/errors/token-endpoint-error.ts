import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * The token endpoint refused the client-credentials request; `oauthError` says why.
 */
export class TokenEndpointError extends PartnerLearningError {
  override readonly name = 'TokenEndpointError' as const;
  /** The OAuth2 `error` value: `invalid_client`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope`, … */
  readonly oauthError: string;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit & { oauthError: string }) {
    super(ErrorCode.TOKEN_ENDPOINT, init, false);
    this.oauthError = init.oauthError;
  }
}
