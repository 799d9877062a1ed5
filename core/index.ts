/**
 * `partner-learning-client`: a runtime-agnostic client for the Partner Learning Service (Node 22+,
 * Cloudflare Workers, Deno, Bun). Start with {@link createClient}.
 *
 * What users call, and nothing more: the factory, the errors and their guard, the in-memory token store, the
 * public types. Drivers other than ky use `core/protocol.ts`; the zod schemas, the error factory and the raw
 * transport types stay inside (exporting the schemas would drag zod into the published types).
 */
export { createClient } from './client.ts';
export {
  ApiKeyError,
  ApplicationError,
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  DeadlineError,
  ErrorCode,
  InactiveLearnerError,
  InvalidResponseError,
  isPartnerLearningError,
  MissingScopeError,
  NetworkError,
  NotFoundError,
  PartnerLearningError,
  QuotaExceededError,
  RedirectError,
  ServerError,
  ThrottledError,
  TimeoutError,
  TokenEndpointError,
  ValidationError,
  type ErrorInit,
  type ErrorOrigin,
  type Violation,
} from './errors/index.ts';
export { MemoryTokenStore } from './auth/memory-token-store.ts';
export { createLimiter, type Limiter, type LimiterOptions, type Outcome } from './http/limiter.ts';
export { createSharedLimiter, type SharedLimiterOptions } from './http/shared-limiter.ts';
export { createLimiterHost, type LimiterHost, type LimiterHostOptions } from './http/limiter-host.ts';
export { fileNameFromDisposition } from './pdf.ts';

export type * from './types/records.ts';
export type * from './types/options.ts';
export type * from './types/calls.ts';
export type * from './types/resources.ts';
export type * from './types/client-api.ts';
export type * from './types/records.ts';
