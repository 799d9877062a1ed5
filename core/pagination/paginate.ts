/**
 * Auto-pagination: a lazy, re-iterable view of a collection that follows the service's next links one page at a
 * time. Only the current page is held, so memory stays flat however long the collection is.
 */
import type { Page, Paginated, ResponseInfo } from '../types/calls.ts';
import type { ApiRequest, Transport } from '../transport.ts';
import { resolveRequestUrl } from '../http/url.ts';
import { unexpectedAnswer, type AnswerContext } from '../local-errors.ts';
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
 * Fetches one page and reads it. The page's `next` is the service's link in the form it is sent back in (an
 * origin-relative or absolute link as given; a document-relative one such as `?page=2` resolved against this page),
 * so it works as a cursor on its own. An empty page has no `next`: it cannot lead to more items, and following
 * such links could go on for ever.
 *
 * @param transport Sends the request.
 * @param request The page's request.
 * @param onResponse Told about the answer (the whole Hydra page as `body`).
 * @returns The page and the canonical URL it came from.
 * @throws {ApplicationError} when the answer is no collection or the next link is no URL.
 */
export async function fetchPage<T>(
  transport: Transport,
  request: ApiRequest,
  onResponse?: (response: ResponseInfo) => void,
): Promise<{ page: Page<T>; url: string }> {
  const response = await transport.request<unknown>(request);
  onResponse?.(responseInfo(response));
  const where = requestUrl(transport.baseUrl, request);
  const context = { method: 'GET', url: where, status: response.status, requestId: response.requestId };
  const url = canonical(new URL(where));
  const page = parsePage<T>(response.data, context);
  if (page.next === undefined) return { page, url };
  if (page.items.length === 0) {
    delete page.next;
    return { page, url };
  }
  let next: URL;
  try {
    next = new URL(page.next, where);
  } catch {
    throw unexpectedAnswer(`The service returned a next link that is no URL (${page.next}); stopped paging.`, context);
  }
  // An origin-relative or absolute link goes as given; a document-relative one (`?page=2`) as the URL it means.
  if (!/^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(page.next)) page.next = next.toString();
  return { page, url };
}

/**
 * @param link The repeated next link.
 * @param context The request whose page gave it.
 * @returns The error that stops paging.
 */
export function loop(link: string, context: AnswerContext): Error {
  return unexpectedAnswer(
    `The service returned a next link to a page already fetched (${link}); stopped paging to avoid an ` +
      'endless loop. Items up to here were delivered.',
    context,
  );
}

/**
 * The request of the page after one: the link, with the first request's learner and call options.
 *
 * @param first The request of the first page.
 * @param link A page's `next`.
 * @returns The next page's request.
 */
export function nextRequest(first: ApiRequest, link: string): ApiRequest {
  const request: ApiRequest = { method: 'GET', link, userId: first.userId, signal: first.signal };
  if (first.retry !== undefined) request.retry = first.retry;
  if (first.timeoutMs !== undefined) request.timeoutMs = first.timeoutMs;
  return request;
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
 * @returns Pages in order; stops after the page without a next link, or after an empty page.
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
    const { page, url } = await fetchPage<T>(transport, request, onResponse);
    fetched.add(url);
    yield page;
    if (page.next === undefined) return;
    const where = requestUrl(transport.baseUrl, request);
    if (fetched.has(canonical(new URL(page.next, where)))) {
      throw loop(page.next, { method: 'GET', url: where });
    }
    request = nextRequest(first, page.next);
  }
}

/**
 * One page, for callers that page by hand (n8n's list search, the relay): pass its `next` back as the cursor.
 *
 * @param transport Sends the request.
 * @param request The first page's request, or a cursor's (`link`).
 * @param onResponse Told about the answer.
 * @returns The page; `next` is absent on the last page.
 * @throws {ApplicationError} when the answer is no collection or its next link leads back to itself.
 */
export async function singlePage<T>(
  transport: Transport,
  request: ApiRequest,
  onResponse?: (response: ResponseInfo) => void,
): Promise<Page<T>> {
  const { page, url } = await fetchPage<T>(transport, request, onResponse);
  if (page.next !== undefined && canonical(new URL(page.next, url)) === url) {
    throw loop(page.next, { method: 'GET', url });
  }
  return page;
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
