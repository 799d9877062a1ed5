/**
 * Collections against the emulator's Hydra pagination: `for await` across pages, `pages()`, `toArray({ max })`
 * stopping at the cap, and delta sync from a persisted watermark at the inclusive `updatedAt[after]` edge.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Watermark } from '../../../core/types/calls.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { requestsTo } from '../../support/core-control.ts';
import { pickCatalog, registerLearner } from '../../support/core-fixtures.ts';

const MODULES = /\/v1\/modules$/;

function idOf(record: unknown): string {
  const r = record as { id?: unknown; '@id'?: unknown };
  return String(r.id ?? r['@id']);
}

describe('collections', () => {
  let h: Harness;
  let client: PartnerLearningClient;

  beforeEach(async () => {
    h = await startInProcess();
    client = h.client();
  });

  it('for await visits every item exactly once across pages of 2, one request per page', async () => {
    const all = await client.modules.list({ pageSize: 100 }).toArray({ max: 10_000 });
    expect(all.length).toBeGreaterThan(4);
    await h.control.clearRequests();
    const seen: string[] = [];
    for await (const module of client.modules.list({ pageSize: 2 })) seen.push(idOf(module));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(all.map(idOf).sort());
    const pages = requestsTo(await h.control.requests(), MODULES);
    expect(pages).toHaveLength(Math.ceil(all.length / 2));
    expect(pages.every((p) => p.status === 200)).toBe(true);
  });

  it.each([
    ['absolute', (next: string, origin: string) => `${origin}${next}`],
    ['query-only', (next: string) => next.slice(next.indexOf('?'))],
  ] as const)('follows %s next links through the real transport', async (_kind, rewrite) => {
    // A service behind another proxy may write its links differently; the emulator writes origin-relative ones.
    const rewriting = h.client({
      fetch: async (input, init) => {
        const response = await h.send(new Request(input, init));
        if (!response.headers.get('content-type')?.includes('json')) return response;
        const body = (await response.json()) as { 'hydra:view'?: Record<string, string> };
        const view = body['hydra:view'];
        if (view?.['hydra:next']) view['hydra:next'] = rewrite(view['hydra:next'], h.origin);
        const headers = new Headers(response.headers);
        headers.delete('content-length');
        return new Response(JSON.stringify(body), { status: response.status, headers });
      },
    });
    const all = await client.modules.list({ pageSize: 100 }).toArray({ max: 10_000 });
    const paged = await rewriting.modules.list({ pageSize: 2 }).toArray({ max: 10_000 });
    expect(paged.map(idOf)).toEqual(all.map(idOf));
  });

  it('pages() yields pages of at most 2 with a next link on all but the last', async () => {
    const pages = [];
    for await (const page of client.modules.list({ pageSize: 2 }).pages()) pages.push(page);
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, i) => {
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.items.length).toBeLessThanOrEqual(2);
      if (i < pages.length - 1) expect(page.next).toBeTruthy();
      else expect(page.next).toBeFalsy();
    });
  });

  it('toArray({ max }) stops fetching once it has max items', async () => {
    await client.categories.list().toArray({ max: 1 }); // token outside the count
    await h.control.clearRequests();
    const three = await client.modules.list({ pageSize: 2 }).toArray({ max: 3 });
    expect(three).toHaveLength(3);
    expect(requestsTo(await h.control.requests(), MODULES)).toHaveLength(2);
    await h.control.clearRequests();
    const two = await client.modules.list({ pageSize: 2 }).toArray({ max: 2 });
    expect(two).toHaveLength(2);
    expect(requestsTo(await h.control.requests(), MODULES)).toHaveLength(1);
  });

  it('catalog delta sync: a second run from the watermark repeats nothing', async () => {
    const first = client.courses.sync({ pageSize: 2 });
    const all: string[] = [];
    for await (const course of first) all.push(idOf(course));
    expect(all.length).toBeGreaterThan(0);
    const watermark = JSON.parse(JSON.stringify(first.watermark)) as Watermark;
    expect(typeof watermark.updatedAt).toBe('string');
    const second = client.courses.sync({ since: watermark, pageSize: 2 });
    const again: string[] = [];
    for await (const course of second) again.push(idOf(course));
    expect(again).toEqual([]);
    const lastUrl = h.wire.calls.filter((c) => c.url.includes('/v1/courses')).at(-1)?.url ?? '';
    expect(decodeURIComponent(lastUrl)).toContain(`updatedAt[after]=${watermark.updatedAt}`);
  });

  it('learner delta sync: only the records changed since the watermark, never the ones at the inclusive edge', async () => {
    const picks = await pickCatalog(h.control);
    const learner = await registerLearner(client);
    const scope = { userId: learner.uuid };
    await client.modules.complete(picks.completable.id, scope);

    const initial = client.transcripts.sync({ ...scope, pageSize: 2 });
    const firstRun: string[] = [];
    for await (const t of initial) firstRun.push(idOf(t));
    expect(firstRun).toHaveLength(1);
    const watermark = JSON.parse(JSON.stringify(initial.watermark)) as Watermark;

    // Same instant as the watermark (the fake clock has not moved): the inclusive filter sends the old record
    // again, and the sync must drop it while still delivering the new one.
    await client.modules.complete(picks.otherCompletable.id, scope);
    const delta = client.transcripts.sync({ ...scope, since: watermark, pageSize: 2 });
    const secondRun: string[] = [];
    for await (const t of delta) secondRun.push(idOf(t));
    expect(secondRun.length).toBeGreaterThan(0);
    expect(secondRun).not.toContain(firstRun[0]);
    const everything = await client.transcripts.list(scope).toArray({ max: 100 });
    expect([...firstRun, ...secondRun].sort()).toEqual(everything.map(idOf).sort());

    // Later: only what changed after the second run.
    h.clock.advance(5_000);
    const picksLeft = picks.courses
      .flatMap((c) => c.modules)
      .find((m) => m.contentType !== 'scorm' && m.published !== false && ![picks.completable.id, picks.otherCompletable.id].includes(m.id));
    const nothing: string[] = [];
    const quiet = client.transcripts.sync({ ...scope, since: delta.watermark });
    for await (const t of quiet) nothing.push(idOf(t));
    expect(nothing).toEqual([]);
    if (picksLeft) {
      await client.modules.complete(picksLeft.id, scope);
      const later: string[] = [];
      for await (const t of client.transcripts.sync({ ...scope, since: quiet.watermark ?? delta.watermark })) {
        later.push(idOf(t));
      }
      expect(later.length).toBeGreaterThan(0);
      expect(later.some((id) => [...firstRun, ...secondRun].includes(id))).toBe(false);
    }
  });
});
