/**
 * The searchable, paged lists behind the resource locators. A page of the service's collection is one page of the
 * list. The service has no text search, so the filter matches names and titles here: a page with no match is
 * skipped and the next one fetched, until there is a match or the collection ends, so a match on a later page is
 * still found. With a course chosen in the node's `courseId`, the module list shows only that course's modules.
 */
import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import type { CatalogGroup, Page, PartnerLearningClient } from '../../../core/protocol.ts';
import { partnerLearningClient, toNodeApiError } from '../transport/index.ts';

const PAGE_SIZE = 50;

/** The catalog groups with a list search. */

interface Named {
  id: number;
  name?: string;
  title?: string;
}

/**
 * What the pagination token carries between calls: where the catalog resumes (the service's next link, as the core
 * gave it; none = its first page).
 */
interface Position {
  next?: string;
}

function encode(position: Position): string {
  return JSON.stringify(position);
}

function decode(token: string): Position {
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    value = undefined;
  }
  const position = value as Position | undefined;
  if (typeof position !== 'object' || position === null
    || (position.next !== undefined && typeof position.next !== 'string')) {
    // Only an earlier answer of this list gives a token; anything else is not one.
    throw new Error('The list search got a pagination token it did not give out: reopen the list to start again.');
  }
  return position;
}

/** The records as list entries (`Name (id)`, the ID as value), those matching the typed text. */
function entries(records: Named[], needle: string): INodeListSearchItems[] {
  return records
    .map((record) => ({ name: `${record.name ?? record.title ?? 'Untitled'} (${record.id})`, value: String(record.id) }))
    .filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle));
}

/**
 * Pages through a catalog collection from `from` until a page has entries to show or the collection ends.
 *
 * @returns The entries and, unless the collection ended, the token of where to resume.
 */
async function catalogPages(
  client: PartnerLearningClient, group: CatalogGroup, needle: string, from: Position, pageSize: number,
): Promise<INodeListSearchResult> {
  let cursor = from.next;
  for (;;) {
    const collection = client[group];
    const page = (cursor === undefined ? await collection.page({ pageSize }) : await collection.page({ cursor })) as Page<Named>;
    const results = entries(page.items, needle);
    // An empty page ends the list even if the service still sends a next link.
    const next = page.next !== undefined && page.items.length > 0 ? page.next : undefined;
    if (next === undefined) return { results };
    if (results.length > 0) return { results, paginationToken: encode({ next }) };
    cursor = next;
  }
}

function needleOf(filter: string | undefined): string {
  return (filter ?? '').trim().toLowerCase();
}

/**
 * One page of list-search results of a catalog collection.
 *
 * @param ctx The node's `this`.
 * @param group The core's resource group.
 * @param filter Text typed in the search box (matched in names and titles, across pages).
 * @param paginationToken The token of the previous result, if any.
 * @param pageSize Records per page fetched from the service.
 * @returns The results and the token of the next page (none at the end).
 */
export async function searchPage(
  ctx: ILoadOptionsFunctions, group: CatalogGroup, filter: string | undefined, paginationToken: string | undefined,
  pageSize = PAGE_SIZE,
): Promise<INodeListSearchResult> {
  try {
    const client = await partnerLearningClient(ctx);
    const from = paginationToken ? decode(paginationToken) : {};
    return await catalogPages(client, group, needleOf(filter), from, pageSize);
  } catch (error) {
    throw toNodeApiError(ctx.getNode(), error);
  }
}

/**
 * The course chosen in the node's optional `courseId` locator, when it is a plain ID. Our locator modes carry no
 * `extractValue` rule, so the ID is the locator's `value`; an expression cannot be resolved while editing, and a
 * node saved before the parameter existed has none: both mean no course.
 *
 * @param ctx The node's `this`.
 * @returns The course ID, or `undefined`.
 */
export function chosenCourse(ctx: ILoadOptionsFunctions): number | undefined {
  const raw = ctx.getCurrentNodeParameter('courseId');
  const value = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { value: unknown }).value : raw;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined;
}

/**
 * One page of the module list. With a course chosen it is a real filter: only that course's modules (from the course
 * detail, one request), in one page with no token. n8n's list-search result is one flat list (name, value, url,
 * description per entry: no groups or headings), so mixing in the rest of the catalog could not be told apart.
 *
 * @param ctx The node's `this`.
 * @param filter Text typed in the search box.
 * @param paginationToken The token of the previous result, if any.
 * @param pageSize Records per page fetched from the service.
 * @returns The results and the token of the next page (none at the end).
 */
export async function searchModulePage(
  ctx: ILoadOptionsFunctions, filter: string | undefined, paginationToken: string | undefined, pageSize = PAGE_SIZE,
): Promise<INodeListSearchResult> {
  const courseId = chosenCourse(ctx);
  if (courseId === undefined) return searchPage(ctx, 'modules', filter, paginationToken, pageSize);
  try {
    const client = await partnerLearningClient(ctx);
    const { modules } = await client.courses.get(courseId);
    return { results: entries(modules, needleOf(filter)) };
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

/** Modules, paged; only those of the course chosen in `courseId`, when one is. */
export async function searchModules(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
  return searchModulePage(this, filter, paginationToken);
}
