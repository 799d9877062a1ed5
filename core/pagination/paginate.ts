/**
 * Auto-pagination: a lazy, re-iterable view of a collection that follows the service's next links one page at a
 * time. Only the current page is held, so memory stays flat however long the collection is.
 */
import type { Page, Paginated, ResponseInfo } from '../client-types.ts';
import type { ApiRequest, Transport } from '../transport.ts';
import { resolveRequestUrl } from '../http/url.ts';
import { unexpectedAnswer } from '../local-errors.ts';
import { maxItemsSchema } from '../validation/schemas.ts';
import { parseInput } from '../validation/validate.ts';
import { responseInfo } from '../resources/call.ts';
import { parsePage } from './page.ts';

/** A URL in one spelling (query parameters sorted, no fragment), so the same page is recognised however written. */
function canonical(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  copy.searchParams.sort();
  return copy.toString();
}

/** The absolute URL a request went to (a transport has already refused any link outside the base URL). */
function requestUrl(baseUrl: string, request: ApiRequest): string {
  return request.link !== undefined ? new URL(request.link, baseUrl).toString() : resolveRequestUrl(baseUrl, request);
}

/**
 * Fetches the pages of a collection, the first with `first`, each next one with the link the service gave. A link
 * is resolved against the URL of the page that gave it (RFC 3986), so absolute, origin-relative (`/sandbox/v1/…`)
 * and query-only (`?page=2`) links all work; the transport still refuses one outside the base URL.
 *
 * @param transport Sends the requests.
 * @param first The request of the first page (GET, path and query). `userId`, `signal`, `retry` and `timeoutMs`
 *   carry over to next links.
 * @param onResponse Told about each page's answer (the whole Hydra page as `body`).
 * @returns Pages in order; stops after the page without a next link, or after an empty page (an empty page with a
 *   next link cannot lead to more items, and following such links could go on for ever).
 * @throws {ApplicationError} when a next link leads back to a page already fetched (a loop) or an answer is no
 *   collection.
 */
export async function* fetchPages<T>(
  transport: Transport,
  first: ApiRequest,
  onResponse?: (response: ResponseInfo) => void,
): AsyncGenerator<Page<T>, void> {
  // Page URLs only (a few bytes per page), never pages: enough to detect a cycle of any length.
  const fetched = new Set<string>();
  let request: ApiRequest = first;
  for (;;) {
    const response = await transport.request<unknown>(request);
    onResponse?.(responseInfo(response));
    const where = requestUrl(transport.baseUrl, request);
    const context = { method: 'GET', url: where, status: response.status, requestId: response.requestId };
    fetched.add(canonical(new URL(where)));
    const page = parsePage<T>(response.data, context);
    yield page;
    if (page.next === undefined || page.items.length === 0) return;
    let next: URL;
    try {
      next = new URL(page.next, where);
    } catch {
      throw unexpectedAnswer(`The service returned a next link that is no URL (${page.next}); stopped paging.`, context);
    }
    if (fetched.has(canonical(next))) {
      throw unexpectedAnswer(
        `The service returned a next link to a page already fetched (${page.next}); stopped paging to avoid an ` +
          'endless loop. Items up to here were delivered.',
        context,
      );
    }
    // An origin-relative or absolute link goes as given; a document-relative one (`?page=2`) as the URL it means.
    const link = /^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(page.next) ? page.next : next.toString();
    request = { method: 'GET', link, userId: first.userId, signal: first.signal };
    if (first.retry !== undefined) request.retry = first.retry;
    if (first.timeoutMs !== undefined) request.timeoutMs = first.timeoutMs;
  }
}

/**
 * @param transport Sends the requests.
 * @param first The request of the first page. Nothing is sent until the result is iterated.
 * @param onResponse Told about each page's answer.
 * @returns A {@link Paginated} view: `for await` over items, `pages()`, `toArray({ max })`.
 * @example
 * ```ts
 * for await (const course of client.courses.list({ pageSize: 50 })) console.log(course.id);
 * const firstHundred = await client.modules.list().toArray({ max: 100 });
 * ```
 */
export function paginate<T>(
  transport: Transport,
  first: ApiRequest,
  onResponse?: (response: ResponseInfo) => void,
): Paginated<T> {
  const pages = (): AsyncGenerator<Page<T>, void> => fetchPages<T>(transport, first, onResponse);
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
    async toArray(options: { max: number }): Promise<T[]> {
      const max = parseInput(maxItemsSchema, options?.max, 'max');
      const items: T[] = [];
      // Leaving the loop early closes the generator, so the next page is never requested.
      for await (const page of pages()) {
        for (const item of page.items) {
          items.push(item);
          if (items.length >= max) return items;
        }
      }
      return items;
    },
  };
}
