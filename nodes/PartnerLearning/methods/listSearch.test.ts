import { describe, expect, it } from 'vitest';
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { emulatorCredential, fakeContext } from '../../../test/n8n/support/fake-n8n.ts';
import { searchCourses, searchOrganizations, searchPage } from './listSearch.ts';

function context(): ILoadOptionsFunctions {
  return fakeContext({ ...emulatorCredential(), parameters: {} }) as unknown as ILoadOptionsFunctions;
}

describe('resource locator list search', () => {
  it('lists organizations by name with their ids as values', async () => {
    const { results } = await searchOrganizations.call(context());
    expect(results.length).toBe(5);
    expect(results[0]).toEqual({ name: expect.stringMatching(/\(1\)$/), value: '1' });
  });

  it('pages with the service\'s next link as the token, until there is none', async () => {
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
});
