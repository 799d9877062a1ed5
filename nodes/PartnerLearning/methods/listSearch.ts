/**
 * The searchable, paged lists behind the resource locators. A page of the service's collection is one page of the
 * list; the pagination token is the service's own next link (followed by the core, which refuses a link outside
 * the base URL). The service has no text search, so the filter matches names and titles within each page.
 */
import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { clientOnTransport } from '../../../core/protocol.ts';
import type { Page } from '../../../core/protocol.ts';
import { parsePage } from '../../../core/protocol.ts';
import { createN8nTransport, CREDENTIAL_TYPE } from '../transport/n8n-transport.ts';
import { toNodeApiError } from '../transport/n8n-errors.ts';

const PAGE_SIZE = 50;

/** The catalog groups with a list search. */
export type Catalog = 'organizations' | 'categories' | 'courses' | 'modules';

interface Named {
  id: number;
  name?: string;
  title?: string;
}

/**
 * One page of a catalog collection as list-search results.
 *
 * @param ctx The node's `this`.
 * @param group The core's resource group.
 * @param filter Text typed in the search box (matched within the page).
 * @param paginationToken The next page's URL from the previous result, if any.
 * @param pageSize Records per page.
 * @returns The results and the token of the next page.
 */
export async function searchPage(
  ctx: ILoadOptionsFunctions, group: Catalog, filter: string | undefined, paginationToken: string | undefined,
  pageSize = PAGE_SIZE,
): Promise<INodeListSearchResult> {
  try {
    const credentials = await ctx.getCredentials<{ baseUrl: string; apiKey: string }>(CREDENTIAL_TYPE);
    const transport = createN8nTransport(ctx, { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey });
    let page: Page<Named>;
    let where = `${transport.baseUrl}/${group}`;
    if (paginationToken) {
      where = paginationToken;
      const response = await transport.request<unknown>({ method: 'GET', link: paginationToken });
      page = parsePage<Named>(response.data, { method: 'GET', url: paginationToken, status: response.status });
    } else {
      const first = await clientOnTransport(transport)[group].list({ pageSize }).pages()[Symbol.asyncIterator]().next();
      page = first.done ? { items: [] } : (first.value as Page<Named>);
    }
    const needle = (filter ?? '').trim().toLowerCase();
    const results: INodeListSearchItems[] = page.items
      .map((record) => ({ name: `${record.name ?? record.title ?? 'Untitled'} (${record.id})`, value: String(record.id) }))
      .filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle));
    // The token is the next page's absolute URL (a link may be relative to the page that gave it).
    const next = page.next && page.items.length > 0 ? new URL(page.next, where).toString() : undefined;
    return next ? { results, paginationToken: next } : { results };
  } catch (error) {
    throw toNodeApiError(ctx.getNode(), error);
  }
}

/** Organizations, paged. */
export async function searchOrganizations(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
  return searchPage(this, 'organizations', filter, paginationToken);
}

/** Categories, paged. */
export async function searchCategories(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
  return searchPage(this, 'categories', filter, paginationToken);
}

/** Published courses, paged. */
export async function searchCourses(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
  return searchPage(this, 'courses', filter, paginationToken);
}

/** Modules, paged. */
export async function searchModules(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
  return searchPage(this, 'modules', filter, paginationToken);
}
