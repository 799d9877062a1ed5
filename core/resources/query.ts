/**
 * Shared checks and query building for collection endpoints. Parameter names are API Platform's (`itemsPerPage`,
 * `updatedAt[after]`): the spec leaves them open, the emulator contract fixes them.
 */
import type { CallOptions, Watermark } from '../client-types.ts';
import type { ApiRequest } from '../transport.ts';
import { UPDATED_AFTER_PARAM } from '../pagination/delta-sync.ts';
import {
  idSchema,
  isoDateTimeSchema,
  pageSizeSchema,
  recordIdSchema,
  uuidSchema,
  watermarkSchema,
} from '../validation/schemas.ts';
import { checkAll, parseInput } from '../validation/validate.ts';
import { asRecord, callChecks, callFields, type Check } from './call.ts';

/** Options of a list call, as the caller gave them (unchecked). */
export interface ListInput extends CallOptions {
  pageSize?: number;
  updatedAfter?: string;
  userId?: string;
}

/** Options of a sync call, as the caller gave them (unchecked). */
export interface SyncInput extends CallOptions {
  pageSize?: number;
  since?: Watermark;
  userId?: string;
}

function listChecks(options: unknown, learner: boolean): Check[] {
  const o = asRecord(options);
  const checks: Check[] = callChecks(options);
  if (learner) checks.push([uuidSchema, o.userId, 'userId']);
  if (o.pageSize !== undefined) checks.push([pageSizeSchema, o.pageSize, 'pageSize']);
  return checks;
}

/**
 * Checks list options and builds the first-page request.
 *
 * @param path The collection path, e.g. `/courses`.
 * @param options The caller's options.
 * @param learner Whether the collection is user-scoped (then `userId` is required and sent as `X-User-ID`).
 * @returns The first-page request.
 * @throws {ValidationError} on a bad `userId`, `pageSize` or `updatedAfter`; nothing is sent.
 */
export function listRequest(path: string, options?: ListInput, learner = false): ApiRequest {
  const checks = listChecks(options, learner);
  const o = (options ?? {}) as ListInput;
  if (o.updatedAfter !== undefined) checks.push([isoDateTimeSchema, o.updatedAfter, 'updatedAfter']);
  checkAll(checks);
  return {
    method: 'GET',
    path,
    query: { itemsPerPage: o.pageSize, [UPDATED_AFTER_PARAM]: o.updatedAfter },
    userId: learner ? o.userId : undefined,
    ...callFields(o),
  };
}

/**
 * Checks sync options and builds the first-page request (the date filter is added by the delta sync).
 *
 * @param path The collection path.
 * @param options The caller's options.
 * @param learner Whether the collection is user-scoped.
 * @returns The request and the checked watermark.
 * @throws {ValidationError} on a bad `userId`, `pageSize` or `since`; nothing is sent.
 */
export function syncRequest(
  path: string,
  options?: SyncInput,
  learner = false,
): { request: ApiRequest; since: Watermark | undefined } {
  const checks = listChecks(options, learner);
  const o = (options ?? {}) as SyncInput;
  if (o.since !== undefined) checks.push([watermarkSchema, o.since, 'since']);
  checkAll(checks);
  return {
    request: {
      method: 'GET',
      path,
      query: { itemsPerPage: o.pageSize },
      userId: learner ? o.userId : undefined,
      ...callFields(o),
    },
    since: o.since,
  };
}

/**
 * @param id A catalog id.
 * @param name The argument's name for the error.
 * @returns The id as a path segment.
 * @throws {ValidationError} unless a positive integer.
 */
export function idSegment(id: unknown, name = 'id'): string {
  return encodeURIComponent(String(parseInput(idSchema, id, name)));
}

/**
 * @param uuid A learner UUID.
 * @param name The argument's name for the error.
 * @returns The UUID, checked (use it as `userId` or, encoded, in a path).
 * @throws {ValidationError} unless a 36-character UUID.
 */
export function checkUuid(uuid: unknown, name = 'userId'): string {
  return parseInput(uuidSchema, uuid, name);
}

/**
 * Checks a learner-scoped call's id and `userId` together, so both problems are reported at once.
 *
 * @param id The record or module id.
 * @param options The call options with the learner UUID (`userId`), checked with the call options.
 * @param kind `catalog` for module ids (positive integers), `record` for progress/transcript ids.
 * @param name The id argument's name for the error.
 * @returns The encoded path segment and the checked user id.
 * @throws {ValidationError} listing every bad input; nothing is sent.
 */
export function learnerTarget(
  id: unknown,
  options: unknown,
  kind: 'catalog' | 'record',
  name = 'id',
): { segment: string; userId: string } {
  checkAll([
    [kind === 'catalog' ? idSchema : recordIdSchema, id, name],
    [uuidSchema, asRecord(options).userId, 'userId'],
    ...callChecks(options),
  ]);
  return { segment: encodeURIComponent(String(id)), userId: asRecord(options).userId as string };
}
