/**
 * Auto-pagination: a lazy, re-iterable view of a collection that follows the service's next links one page at a
 * time. Only the current page is held, so memory stays flat however long the collection is.
 */
import type { Page, Paginated } from '../client-types.ts';
import type { ApiRequest, Transport } from '../transport.ts';
import { unexpectedAnswer } from '../local-errors.ts';
import { maxItemsSchema } from '../validation/schemas.ts';
import { parseInput } from '../validation/validate.ts';
import { parsePage } from './page.ts';

/**
 * Fetches the pages of a collection, the first with `first`, each next one with the link the service gave.
 *
 * @param transport Sends the requests.
 * @param first The request of the first page (GET, path and query). `userId` and `signal` carry over to next links.
 * @returns Pages in order; stops after the page without a next link.
 * @throws {ApplicationError} when a next link repeats one already followed (a loop) or an answer is no collection.
 */
export async function* fetchPages<T>(transport: Transport, first: ApiRequest): AsyncGenerator<Page<T>, void> {
  // Links only (a few bytes per page), never pages: enough to detect a cycle of any length.
  const followed = new Set<string>();
  let request: ApiRequest = first;
  for (;;) {
    const response = await transport.request<unknown>(request);
    const where = request.link ?? `${transport.baseUrl}${request.path ?? ''}`;
    const context = { method: 'GET', url: where, status: response.status, requestId: response.requestId };
    const page = parsePage<T>(response.data, context);
    yield page;
    if (page.next === undefined) return;
    if (followed.has(page.next)) {
      throw unexpectedAnswer(
        `The service returned a next link it had already given (${page.next}); stopped paging to avoid an endless ` +
          'loop. Items up to here were delivered.',
        context,
      );
    }
    followed.add(page.next);
    request = { method: 'GET', link: page.next, userId: first.userId, signal: first.signal };
  }
}

/**
 * @param transport Sends the requests.
 * @param first The request of the first page. Nothing is sent until the result is iterated.
 * @returns A {@link Paginated} view: `for await` over items, `pages()`, `toArray({ max })`.
 * @example
 * ```ts
 * for await (const course of client.courses.list({ pageSize: 50 })) console.log(course.id);
 * const firstHundred = await client.modules.list().toArray({ max: 100 });
 * ```
 */
export function paginate<T>(transport: Transport, first: ApiRequest): Paginated<T> {
  const pages = (): AsyncGenerator<Page<T>, void> => fetchPages<T>(transport, first);
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
