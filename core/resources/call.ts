/**
 * The options every call takes (`signal`, `retry`, `timeoutMs`, `onResponse`): checked with the call's other inputs,
 * carried on the `ApiRequest`, and the service's answer reported to `onResponse`. Shared by every resource group.
 */
import type { ZodType } from 'zod';
import type { CallOptions, ResponseInfo } from '../types/calls.ts';
import type { ApiRequest, ApiResponse, Transport } from '../transport.ts';
import {
  callbackSchema,
  optionsObjectSchema,
  retryOptionsSchema,
  deadlineMsSchema,
  timeoutMsSchema,
} from '../validation/schemas.ts';
import { checkAll } from '../validation/validate.ts';

/** One check: [schema, value, the name the caller knows it by]. */
export type Check = readonly [ZodType, unknown, string];

/** The response headers passed on to `onResponse`; nothing else leaves (no cookies, no gateway internals). */
export const RESPONSE_HEADER_ALLOWLIST = [
  'content-type',
  'content-length',
  'content-disposition',
  'cache-control',
  'retry-after',
  'x-request-id',
] as const;

/**
 * @param options The caller's options argument, unchecked.
 * @returns It as a record when it is an object, else an empty record (its own check reports the mistake).
 */
export function asRecord(options: unknown): Record<string, unknown> {
  return typeof options === 'object' && options !== null && !Array.isArray(options)
    ? (options as Record<string, unknown>)
    : {};
}

/**
 * The checks of the options argument itself and of the fields every call takes. Run them with the call's own
 * checks in one `checkAll`, so the caller sees every problem at once.
 *
 * @param options The caller's options argument, unchecked.
 * @returns The checks; `undefined` fields are left out (they are optional).
 */
export function callChecks(options: unknown): Check[] {
  const checks: Check[] = [[optionsObjectSchema, options, 'options']];
  const o = asRecord(options);
  if (o.retry !== undefined && o.retry !== false) checks.push([retryOptionsSchema, o.retry, 'retry']);
  if (o.timeoutMs !== undefined) checks.push([timeoutMsSchema, o.timeoutMs, 'timeoutMs']);
  if (o.deadlineMs !== undefined) checks.push([deadlineMsSchema, o.deadlineMs, 'deadlineMs']);
  if (o.onResponse !== undefined) checks.push([callbackSchema, o.onResponse, 'onResponse']);
  return checks;
}

/**
 * Checks a call's options together with its other inputs.
 *
 * @param options The caller's options argument.
 * @param checks The call's own checks (ids, UUIDs, bodies).
 * @returns The options, now known to be an object (empty when left out).
 * @throws {ValidationError} listing every bad input; nothing is sent.
 */
export function checkCall<O extends object>(options: O | undefined, checks: Check[] = []): Partial<O> {
  checkAll([...checks, ...callChecks(options)]);
  return (options ?? {}) as Partial<O>;
}

/**
 * The `ApiRequest` fields that come from the call options (only those given, so requests stay minimal).
 *
 * @param options Checked call options.
 * @returns `signal`, `retry`, `timeoutMs` and `deadlineMs` as given.
 */
export function callFields(options: CallOptions | undefined): Pick<ApiRequest, 'signal' | 'retry' | 'timeoutMs' | 'deadlineMs'> {
  const fields: Pick<ApiRequest, 'signal' | 'retry' | 'timeoutMs' | 'deadlineMs'> = { signal: options?.signal };
  if (options?.retry !== undefined) fields.retry = options.retry;
  if (options?.timeoutMs !== undefined) fields.timeoutMs = options.timeoutMs;
  if (options?.deadlineMs !== undefined) fields.deadlineMs = options.deadlineMs;
  return fields;
}

/**
 * @param response A successful answer from the transport.
 * @param streamed Whether `data` is an unread body stream (then no `body` is reported).
 * @returns What `onResponse` is told: status, request id, allowlisted headers and the parsed body.
 */
export function responseInfo(response: ApiResponse<unknown>, streamed = false): ResponseInfo {
  const headers: Record<string, string> = {};
  for (const name of RESPONSE_HEADER_ALLOWLIST) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const info: ResponseInfo = { status: response.status, headers };
  if (response.requestId !== undefined) info.requestId = response.requestId;
  if (!streamed && response.data !== undefined) info.body = response.data;
  return info;
}

/**
 * Sends one request with the call options applied, and reports the answer to `onResponse`.
 *
 * @param transport Sends the request.
 * @param request Method, path, body; `signal`, `retry` and `timeoutMs` are taken from `options`.
 * @param options Checked call options.
 * @returns The transport's answer.
 */
export async function send<T>(
  transport: Transport,
  request: ApiRequest,
  options: CallOptions | undefined,
): Promise<ApiResponse<T>> {
  const response = await transport.request<T>({ ...request, ...callFields(options) });
  options?.onResponse?.(responseInfo(response, request.responseType === 'stream'));
  return response;
}
