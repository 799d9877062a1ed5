/**
 * The two errors the resource layer raises itself (everything else comes from the transport): invalid input,
 * found before any request, and a service answer that is not what the specification promises. Kept in one place so
 * the rest of the resource code does not depend on the error classes' constructor shapes.
 */
import { ApplicationError, ValidationError, type Violation } from './errors/index.ts';

export type { Violation };

/**
 * @param violations At least one violation.
 * @returns A `ValidationError` with origin `client` (no request was made).
 */
export function invalidInput(violations: Violation[]): ValidationError {
  const summary = violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message)).join('; ');
  return new ValidationError({
    message: `Invalid input, no request was sent. ${summary}`,
    violations,
    origin: 'client',
  });
}

/** Where an unexpected answer came from, for the error message. */
export interface AnswerContext {
  method: string;
  url?: string;
  status?: number;
  requestId?: string;
}

/**
 * @param message What came back and what the caller can do (method and URL are appended by the error class).
 * @param context The request that got the answer.
 * @returns An `ApplicationError` (origin `api`).
 */
export function unexpectedAnswer(message: string, context: AnswerContext): ApplicationError {
  return new ApplicationError({
    message,
    origin: 'api',
    method: context.method,
    url: context.url,
    status: context.status,
    requestId: context.requestId,
  });
}
