/**
 * Between the core's errors and n8n's: recognising a core error that n8n wrapped (the credential file carries its
 * own copy of the core, so `instanceof` cannot be trusted across files), and turning one into the `NodeApiError`
 * n8n shows, with the item index, a message and a hint that say what to fix, and the `failure` cause n8n's poll
 * backoff understands.
 */
import type { Failure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { ErrorCode } from '../../../core/protocol.ts';

const CODES = new Set<string>(Object.values(ErrorCode));
const MAX_DEPTH = 5;

/** The public fields of a core error, however many copies of the core are loaded. */
export interface CoreErrorLike extends Error {
  code: string;
  status?: number;
  retryAfterMs?: number;
  violations?: Array<{ propertyPath: string; message: string }>;
  hint?: string;
}

function isCoreError(value: unknown): value is CoreErrorLike {
  return value instanceof Error && typeof (value as { code?: unknown }).code === 'string'
    && CODES.has((value as unknown as { code: string }).code) && typeof (value as { retryable?: unknown }).retryable === 'boolean';
}

/**
 * Finds a core error in what was thrown, following `cause` (n8n wraps errors thrown in `preAuthentication`).
 *
 * @param error Anything thrown.
 * @returns The core error, or `undefined`.
 */
export function asPartnerLearningError(error: unknown): CoreErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < MAX_DEPTH; depth++) {
    if (isCoreError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An HTTP answer that n8n turned into an error (only 401 does: n8n refreshes the token and retries once first). */
export interface WrappedAnswer {
  status: number;
  data: unknown;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * @param error What `httpRequestWithAuthentication` threw.
 * @returns The HTTP answer inside it, when there was one.
 */
export function responseOf(error: unknown): WrappedAnswer | undefined {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < MAX_DEPTH; depth++) {
    const response = (current as { response?: { status?: unknown; data?: unknown; headers?: unknown } }).response;
    if (response && typeof response.status === 'number') {
      return { status: response.status, data: response.data, headers: (response.headers ?? {}) as WrappedAnswer['headers'] };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const HINTS: Record<string, string> = {
  validation_failed: 'Correct the fields named in the message; nothing was sent for an input that failed the local check.',
  application_error: 'Correct the request; sending it again unchanged fails the same way.',
  authentication_failed: 'Open the Partner Learning API credential: the token URL and the base URL must belong to the same environment (sandbox or production).',
  api_key_rejected: "Open the Partner Learning API credential and paste this environment's API key (not the client ID or secret).",
  missing_scope: 'Use a read-write client in the credential (Scope: Read and Write), or ask the operator to grant the scope.',
  inactive_learner: 'Reactivate the learner first (User › Reactivate).',
  not_found: 'Check the ID: the record may not exist, may be unpublished, or may belong to another partner.',
  conflict: "The record's state does not allow this; a SCORM module reports its own completion.",
  throttled: "The usage plan's rate was exceeded through every retry. Run fewer items at once or try again later.",
  quota_exceeded: "The usage plan's daily quota is used up. Wait for it to reset, or ask the operator for a larger plan.",
  server_error: 'The service failed through every retry. Try again later.',
  network_error: "Check the base URL in the credential and that n8n's allowed domains include the API host.",
  timeout: 'The service did not answer in time through every retry. Try again later.',
  token_endpoint_error: "Check the client ID, client secret and token URL in the credential, and allow the token host in the credential's allowed domains.",
  configuration_error: 'Check the token URL and base URL in the credential.',
};

/** The failure cause n8n's poll backoff reads (`NodeApiError` option `failure`). */
function failureOf(error: CoreErrorLike): Failure | undefined {
  switch (error.code) {
    case 'throttled':
      return error.retryAfterMs === undefined ? { cause: 'rate-limited' } : { cause: 'rate-limited', retryAfterMs: error.retryAfterMs };
    case 'quota_exceeded':
      return { cause: 'quota-exhausted' };
    case 'server_error':
    case 'network_error':
    case 'timeout':
      return { cause: 'temporarily-unavailable' };
    case 'authentication_failed':
    case 'api_key_rejected':
    case 'token_endpoint_error':
    case 'missing_scope':
      return { cause: 'credential-invalid' };
    case 'configuration_error':
      return { cause: 'configuration-invalid' };
    default:
      return undefined;
  }
}

/**
 * What "Continue On Fail" puts in the item: `{ error, code, status }` (the contract's shape).
 *
 * @param error Anything thrown by an operation.
 * @returns The item's JSON.
 */
export function failedItemJson(error: unknown): { error: string; code: string; status: number | null } {
  const core = asPartnerLearningError(error);
  if (core) return { error: core.message, code: core.code, status: core.status ?? null };
  const status = Number((error as { httpCode?: unknown }).httpCode);
  return {
    error: error instanceof Error ? error.message : String(error),
    code: 'node_error',
    status: Number.isInteger(status) && status > 0 ? status : null,
  };
}

/**
 * The error n8n shows when an item fails without "Continue On Fail".
 *
 * @param node The node (`this.getNode()`).
 * @param error Anything thrown by an operation.
 * @param itemIndex The failing item.
 * @returns A `NodeApiError` with the item index set (also when `error` already was one, whose index n8n keeps).
 */
export function toNodeApiError(node: INode, error: unknown, itemIndex?: number): NodeApiError {
  const core = asPartnerLearningError(error);
  let wrapped: NodeApiError;
  if (core) {
    const violations = core.violations?.length
      ? ` ${core.violations.map((v) => `${v.propertyPath || 'input'}: ${v.message}`).join('; ')}`
      : '';
    const hint = core.hint ?? HINTS[core.code] ?? '';
    wrapped = new NodeApiError(node, { message: core.message, code: core.code, status: core.status ?? null } as JsonObject, {
      message: core.message,
      description: `${hint}${violations}`.trim() || undefined,
      httpCode: core.status === undefined ? undefined : String(core.status),
      itemIndex,
      failure: failureOf(core),
    });
  } else if (error instanceof NodeApiError) {
    wrapped = error;
  } else {
    wrapped = new NodeApiError(node, { message: error instanceof Error ? error.message : String(error) } as JsonObject, { itemIndex });
  }
  if (itemIndex !== undefined) wrapped.context.itemIndex = itemIndex;
  return wrapped;
}
