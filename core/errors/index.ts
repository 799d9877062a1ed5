/**
 * Every error the client throws, the stable codes, and the factory that maps HTTP answers to them.
 */
export { ErrorCode } from './codes.ts';
export { PartnerLearningError, isPartnerLearningError, withAttempts, type ErrorInit, type ErrorOrigin } from './base.ts';
export { ValidationError, type Violation } from './validation-error.ts';
export { ApplicationError } from './application-error.ts';
export { AuthenticationError } from './authentication-error.ts';
export { ApiKeyError } from './api-key-error.ts';
export { MissingScopeError } from './missing-scope-error.ts';
export { InactiveLearnerError } from './inactive-learner-error.ts';
export { NotFoundError } from './not-found-error.ts';
export { ConflictError } from './conflict-error.ts';
export { ThrottledError } from './throttled-error.ts';
export { QuotaExceededError } from './quota-exceeded-error.ts';
export { ServerError } from './server-error.ts';
export { NetworkError } from './network-error.ts';
export { TimeoutError } from './timeout-error.ts';
export { DeadlineError } from './deadline-error.ts';
export { InvalidResponseError } from './invalid-response-error.ts';
export { RedirectError } from './redirect-error.ts';
export { TokenEndpointError } from './token-endpoint-error.ts';
export { ConfigurationError } from './configuration-error.ts';
export { errorFromResponse, type ErrorResponse } from './factory.ts';
export { readErrorBody, type BodyShape } from './body.ts';
