/**
 * Delta sync over a collection with the inclusive `updatedAt[after]` filter. Because the bound is inclusive, the
 * records changed at exactly the watermark instant come back on the next run; they are skipped when their id is in
 * the watermark's `seenIds`. Only the ids at the newest instant seen are kept, so memory stays flat over any number
 * of records.
 */
import type { DeltaSync, ResponseInfo, Watermark } from '../types/calls.ts';
import type { ApiRequest, Transport } from '../transport.ts';
import { fetchPages } from './paginate.ts';

/** The query parameter of the inclusive lower bound (API Platform DateFilter `after`). */
export const UPDATED_AFTER_PARAM = 'updatedAt[after]';

/**
 * The identity of a record for de-duplication: `id`, else `@id`, else `uuid`, as a string.
 *
 * @param item A record from a collection.
 * @returns The id, or `undefined` when the record has none.
 */
export function recordId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  for (const key of ['id', '@id', 'uuid']) {
    const value = record[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}

function updatedAtOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const value = (item as Record<string, unknown>).updatedAt;
  return typeof value === 'string' ? value : undefined;
}

/**
 * @param transport Sends the requests.
 * @param first The first-page request without the date filter; `updatedAt[after]` is added from `since`.
 * @param since The watermark of the previous run (already validated), or `undefined` for everything.
 * @param onResponse Told about each page's answer.
 * @returns A {@link DeltaSync}: iterate it for the changed records; read `watermark` afterwards and persist it.
 *   Each iteration starts from `since` again; `watermark` is set when an iteration runs to its end.
 * @example
 * ```ts
 * const sync = client.courses.sync({ since: saved });
 * for await (const course of sync) await upsert(course);
 * saved = sync.watermark;
 * ```
 */
export function deltaSync<T>(
  transport: Transport,
  first: ApiRequest,
  since: Watermark | undefined,
  onResponse?: (response: ResponseInfo) => void,
): DeltaSync<T> {
  let finished: Watermark | undefined = since;
  const request: ApiRequest = since
    ? { ...first, query: { ...first.query, [UPDATED_AFTER_PARAM]: since.updatedAt } }
    : first;

  return {
    get watermark() {
      return finished;
    },
    async *[Symbol.asyncIterator]() {
      const sinceMs = since ? Date.parse(since.updatedAt) : Number.NaN;
      const alreadySeen = new Set(since?.seenIds ?? []);
      let maxMs = sinceMs;
      let maxText = since?.updatedAt;
      let idsAtMax = new Set(alreadySeen);

      for await (const page of fetchPages<T>(transport, request, onResponse)) {
        for (const item of page.items) {
          const text = updatedAtOf(item);
          const ms = text === undefined ? Number.NaN : Date.parse(text);
          const id = recordId(item);
          if (ms === sinceMs && id !== undefined && alreadySeen.has(id)) continue;
          if (text !== undefined && !Number.isNaN(ms)) {
            if (Number.isNaN(maxMs) || ms > maxMs) {
              maxMs = ms;
              maxText = text;
              idsAtMax = new Set();
            }
            if (ms === maxMs && id !== undefined) idsAtMax.add(id);
          }
          yield item;
        }
      }
      finished = maxText === undefined ? undefined : { updatedAt: maxText, seenIds: [...idsAtMax] };
    },
  };
}
