/**
 * Reads an error body of any shape the service, its gateway or its token endpoint sends, so the factory can decide
 * on the class by (status, shape, origin) alone. Parsing is kept apart from mapping so it can be tested alone.
 */
import { parseJsonOrText } from '../http/read-body.ts';
import { redact, type Redactor } from '../redact.ts';
import type { Violation } from './validation-error.ts';

export type BodyShape =
  | { kind: 'empty' }
  | { kind: 'hydra'; description: string }
  | { kind: 'validation'; description: string; violations: Violation[] }
  | { kind: 'gateway'; message: string }
  | { kind: 'oauth'; error: string; description?: string }
  | { kind: 'other'; text: string };

const MAX_TEXT = 300;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Redacts first, then cuts: a cut made before redaction could leave part of a credential no pattern recognises. */
function clipper(redactor: Redactor): (text: string) => string {
  return (raw) => {
    const text = redactor.text(raw);
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  };
}

function toViolations(value: unknown, clip: (text: string) => string): Violation[] {
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown) => {
    const record = (item ?? {}) as Record<string, unknown>;
    return {
      propertyPath: typeof record.propertyPath === 'string' ? clip(record.propertyPath) : '',
      message: clip(str(record.message) ?? str(record.title) ?? 'invalid'),
    };
  });
}

/**
 * Classifies a response body.
 *
 * @param body Parsed JSON, raw text, or `undefined`/`null` for no body.
 * @param redactor Applied to every text taken from the body before it is cut to 300 characters (default: the generic
 *   patterns; the pipeline passes the client's own, which also knows its secret values).
 * @returns Its shape: `hydra:Error` (also API Platform 4's unprefixed `Error`/`description`/`detail`),
 *   `validation_failed` with violations, the gateway's terse `{message}`, an OAuth2 `{error}`, empty, or other.
 */
export function readErrorBody(body: unknown, redactor: Redactor = redact): BodyShape {
  const clip = clipper(redactor);
  if (body === undefined || body === null) return { kind: 'empty' };
  if (typeof body === 'string') {
    const text = body.trim();
    if (text === '') return { kind: 'empty' };
    const parsed = text.startsWith('{') ? parseJsonOrText(text) : text;
    if (typeof parsed !== 'string') return readErrorBody(parsed, redactor);
    return { kind: 'other', text: clip(text) };
  }
  if (typeof body !== 'object' || Array.isArray(body)) return { kind: 'other', text: clip(JSON.stringify(body)) };

  const record = body as Record<string, unknown>;
  if (Object.keys(record).length === 0) return { kind: 'empty' };
  const type = str(record['@type']);
  const description =
    str(record['hydra:description']) ?? str(record.description) ?? str(record.detail) ??
    str(record['hydra:title']) ?? str(record.title);

  if (record.error === 'validation_failed' || Array.isArray(record.violations)) {
    const violations = toViolations(record.violations, clip);
    const joined = violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message)).join('; ');
    return { kind: 'validation', description: clip(joined || str(record.message) || description || 'validation failed'), violations };
  }
  if (type === 'hydra:Error' || type === 'Error' || type === 'hydra:ConstraintViolation' || description !== undefined) {
    return { kind: 'hydra', description: clip(description ?? 'no description') };
  }
  const rawError = str(record.error);
  if (rawError !== undefined) {
    const error = clip(rawError);
    const errorDescription = str(record.error_description);
    return errorDescription === undefined ? { kind: 'oauth', error } : { kind: 'oauth', error, description: clip(errorDescription) };
  }
  const message = str(record.message) ?? str(record.Message);
  if (message !== undefined) return { kind: 'gateway', message: clip(message) };
  return { kind: 'other', text: clip(JSON.stringify(record)) };
}

/**
 * The human text of a classified body, for messages.
 *
 * @param shape A classified body.
 * @returns Its description, or an empty string.
 */
export function bodyText(shape: BodyShape): string {
  switch (shape.kind) {
    case 'hydra':
    case 'validation':
      return shape.description;
    case 'gateway':
      return shape.message;
    case 'oauth':
      return shape.description ? `${shape.error}: ${shape.description}` : shape.error;
    case 'other':
      return shape.text;
    case 'empty':
      return '';
  }
}
