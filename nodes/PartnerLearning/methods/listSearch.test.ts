import { describe, expect, it } from 'vitest';
import type { IDataObject, IHttpRequestOptions, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { emulatorCredential, fakeContext } from '../../../test/n8n/support/fake-n8n.ts';
import { chosenCourse, searchCourses, searchModulePage, searchOrganizations, searchPage } from './listSearch.ts';

function context(parameters: IDataObject = {}, log: IHttpRequestOptions[] = []): ILoadOptionsFunctions {
  return fakeContext({ ...emulatorCredential(), parameters, log }) as unknown as ILoadOptionsFunctions;
}

/** A course chosen in the node's `courseId` locator, as the editor holds it. */
function course(value: string, mode = 'list'): IDataObject {
  return { courseId: { __rl: true, mode, value } };
}

/** Every page of the module list, calling again with the token as n8n's editor does when the list is scrolled. */
async function allModulePages(ctx: ILoadOptionsFunctions, filter?: string, pageSize = 5): Promise<INodeListSearchResult[]> {
  const pages: INodeListSearchResult[] = [];
  let token: string | undefined;
  do {
    const page = await searchModulePage(ctx, filter, token, pageSize);
    pages.push(page);
    token = page.paginationToken;
  } while (token && pages.length < 20);
  return pages;
}

const values = (page: INodeListSearchResult) => page.results.map((r) => String(r.value));
const pages = (list: INodeListSearchResult[]) => list.flatMap(values);

describe('resource locator list search', () => {
  it('lists organizations by name with their ids as values', async () => {
    const { results } = await searchOrganizations.call(context());
    expect(results.length).toBe(5);
    expect(results[0]).toEqual({ name: expect.stringMatching(/\(1\)$/), value: '1' });
  });

  it('pages with a token that resumes after the previous page, until there is none', async () => {
    const ctx = context();
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await searchPage(ctx, 'modules', undefined, token, 5);
      seen.push(...page.results.map((r) => String(r.value)));
      token = page.paginationToken as string | undefined;
      pages += 1;
    } while (token && pages < 10);
    expect(token).toBeUndefined();
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeGreaterThanOrEqual(10);
  });

  it('filters by the typed text', async () => {
    const { results } = await searchCourses.call(context(), 'safety');
    expect(results.map((r) => r.value)).toEqual(['1']);
  });

  it('finds a match on a later page in one call, instead of an empty page', async () => {
    // 14 modules in pages of 5: "Planning your week" (18) is on the third page.
    const log: IHttpRequestOptions[] = [];
    const page = await searchPage(context({}, log), 'modules', 'planning', undefined, 5);
    expect(values(page)).toEqual(['18']);
    expect(page.paginationToken).toBeUndefined();
    expect(log.filter((request) => String(request.url).includes('/modules')).length).toBe(3);
  });

  it('stops at the first page with a match and resumes after it with the token', async () => {
    const ctx = context();
    const first = await searchPage(ctx, 'modules', 'safety', undefined, 2);
    expect(values(first)).toEqual(['1', '2']);
    const second = await searchPage(ctx, 'modules', 'safety', first.paginationToken, 2);
    expect(values(second)).toEqual(['3']);
    const rest = await searchPage(ctx, 'modules', 'safety', second.paginationToken, 2);
    expect(rest).toEqual({ results: [] });
  });

  it('refuses a token it did not give out, saying to start again', async () => {
    await expect(searchPage(context(), 'modules', undefined, 'page=2')).rejects.toThrow(/reopen the list/);
  });
});

describe('module list search with a chosen course', () => {
  it('lists only the course\'s modules, in one page', async () => {
    const pages = await allModulePages(context(course('5')));
    expect(pages.length).toBe(1);
    expect(values(pages[0]!)).toEqual(['12', '13', '14']);
    expect(pages[0]!.paginationToken).toBeUndefined();
  });

  it('takes the course by ID mode as well, and a number as the locator value', async () => {
    expect(pages(await allModulePages(context(course('2', 'id'))))).toEqual(['4', '5', '6']);
    expect(chosenCourse(context({ courseId: { __rl: true, mode: 'id', value: 7 } }))).toBe(7);
  });

  it('filters within the course only: a match elsewhere in the catalog is not listed', async () => {
    expect(pages(await allModulePages(context(course('1')), 'safety'))).toEqual(['1', '2', '3']);
    // Module 4 ("privacy") belongs to course 2: with course 1 chosen the list is empty, not the rest of the catalog.
    expect(pages(await allModulePages(context(course('1')), 'privacy'))).toEqual([]);
    expect(pages(await allModulePages(context({}), 'privacy'))).toEqual(['4', '6']);
  });

  it('lists the catalog as usual when no course is chosen or the course is an expression', async () => {
    for (const parameters of [{}, course(''), course('={{ $json.courseId }}')]) {
      const ctx = context(parameters);
      expect(chosenCourse(ctx)).toBeUndefined();
      expect(values(await searchModulePage(ctx, undefined, undefined, 5))).toEqual(['1', '2', '3', '4', '5']);
    }
  });

  it('says so when the chosen course does not exist', async () => {
    await expect(searchModulePage(context(course('999')), undefined, undefined, 5)).rejects.toThrow(/not found|404/i);
  });
});
