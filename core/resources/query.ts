/**
 * Shared checks and query building for collection endpoints. Parameter names are API Platform's (`itemsPerPage`,
 * `updatedAt[after]`): the spec leaves them open, the emulator contract fixes them.
 */
import type { CallOptions, ListOptions, Watermark } from '../types/calls.ts';
import type { ApiRequest } from '../transport.ts';
import { UPDATED_AFTER_PARAM } from '../pagination/delta-sync.ts';
import {
  cursorConflictSchema,
  cursorSchema,
  idSchema,
  isoDateTimeSchema,
  pageNumberSchema,
  pageSizeSchema,
  recordIdSchema,
  uuidSchema,
  watermarkSchema,
} from '../validation/schemas.ts';
import { checkAll } from '../validation/validate.ts';
import { asRecord, callChecks, callFields, type Check } from './call.ts';

/** Options of a list call, as the caller gave them (unchecked): the public list options, plus a learner. */
export interface ListInput extends ListOptions {
  userId?: string;
}

/** Options of a page call: list options, or a cursor from an earlier page. */
export interface PageInput extends ListInput {
  cursor?: string;
}

/** Options of a sync call, as the caller gave them (unchecked). */
export interface SyncInput extends CallOptions {
  pageSize?: number;
  since?: Watermark;
  userId?: string;
}

/** The date filters (API Platform DateFilter operators on `updatedAt`), by option name. */
export const DATE_FILTERS = {
  updatedAfter: UPDATED_AFTER_PARAM,
  updatedStrictlyAfter: 'updatedAt[strictly_after]',
  updatedBefore: 'updatedAt[before]',
  updatedStrictlyBefore: 'updatedAt[strictly_before]',
} as const;

/** The list options that make up a list's query (a cursor already carries them). */
const QUERY_OPTIONS: readonly (keyof ListInput)[] = ['pageSize', 'page', ...(Object.keys(DATE_FILTERS) as (keyof typeof DATE_FILTERS)[])];

function listChecks(options: unknown, learner: boolean): Check[] {
  const o = asRecord(options);
  const checks: Check[] = callChecks(options);
  if (learner) checks.push([uuidSchema, o.userId, 'userId']);
  if (o.pageSize !== undefined) checks.push([pageSizeSchema, o.pageSize, 'pageSize']);
  return checks;
}

function query(o: ListInput): ApiRequest['query'] {
  const q: NonNullable<ApiRequest['query']> = { itemsPerPage: o.pageSize, [UPDATED_AFTER_PARAM]: o.updatedAfter };
  for (const [option, param] of Object.entries(DATE_FILTERS)) q[param] = o[option as keyof typeof DATE_FILTERS];
  if (o.page !== undefined) q.page = o.page;
  return q;
}

/**
 * Checks list options and builds the first-page request.
 *
 * @param path The collection path, e.g. `/courses`.
 * @param options The caller's options.
 * @param learner Whether the collection is user-scoped (then `userId` is required and sent as `X-User-ID`).
 * @returns The first-page request.
 * @throws {ValidationError} on a bad `userId`, `pageSize`, `page` or date filter; nothing is sent.
 */
export function listRequest(path: string, options?: ListInput, learner = false): ApiRequest {
  const checks = listChecks(options, learner);
  const o = asRecord(options) as ListInput;
  if (o.page !== undefined) checks.push([pageNumberSchema, o.page, 'page']);
  for (const option of Object.keys(DATE_FILTERS) as (keyof typeof DATE_FILTERS)[]) {
    if (o[option] !== undefined) checks.push([isoDateTimeSchema, o[option], option]);
  }
  checkAll(checks);
  return { method: 'GET', path, query: query(o), userId: learner ? o.userId : undefined, ...callFields(o) };
}

/**
 * Checks page options and builds the request: the list's first page (or `page`), or the page a cursor names.
 *
 * @param baseUrl The transport's base URL (a cursor must lead to this collection under it).
 * @param path The collection path.
 * @param options The caller's options.
 * @param learner Whether the collection is user-scoped.
 * @returns The page's request.
 * @throws {ValidationError} on a bad option, a cursor of another collection, or a cursor with query options.
 */
export function pageRequest(baseUrl: string, path: string, options?: PageInput, learner = false): ApiRequest {
  const o = asRecord(options) as PageInput;
  if (o.cursor === undefined) return listRequest(path, options, learner);
  const checks = listChecks(options, learner);
  checks.push([cursorSchema(`${baseUrl}${path}`), o.cursor, 'cursor']);
  for (const option of QUERY_OPTIONS) {
    if (o[option] !== undefined) checks.push([cursorConflictSchema, o[option], option]);
  }
  checkAll(checks);
  return { method: 'GET', link: o.cursor, userId: learner ? o.userId : undefined, ...callFields(o) };
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
