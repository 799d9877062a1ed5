/**
 * Content URLs: `keepFresh` refreshes only when `expires_at` minus now (the client's clock) is under 60 s, and the
 * URL is never written to the token store.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import type { ModuleContent, User } from '../../../core/types/records.ts';
import { RecordingTokenStore, startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { requestsTo } from '../../support/core-control.ts';
import type { CatalogPicks } from '../../support/core-fixtures.ts';
import { flatten, pickCatalog, registerLearner } from '../../support/core-fixtures.ts';

describe('content URLs', () => {
  let h: Harness;
  let store: RecordingTokenStore;
  let client: PartnerLearningClient;
  let learner: User;
  let picks: CatalogPicks;

  beforeEach(async () => {
    h = await startInProcess();
    store = new RecordingTokenStore();
    client = h.client({ tokenStore: store });
    picks = await pickCatalog(h.control);
    learner = await registerLearner(client);
  });

  async function calls(): Promise<{ content: number; refresh: number }> {
    const log = await h.control.requests();
    return { content: requestsTo(log, /\/content$/).length, refresh: requestsTo(log, /\/refresh-url$/).length };
  }

  it('keepFresh: no refresh at 61 s before expiry, a refresh at 59 s', async () => {
    const refreshed: ModuleContent[] = [];
    const keeper = client.modules.keepFresh(picks.completable.id, {
      userId: learner.uuid,
      onRefresh: (c) => refreshed.push(c),
    });
    const first = await keeper.current();
    expect(await calls()).toEqual({ content: 1, refresh: 0 });

    h.clock.advance(Date.parse(first.expires_at) - 61_000 - h.clock.now());
    const stillFirst = await keeper.current();
    expect(stillFirst.content_url).toBe(first.content_url);
    expect(await calls()).toEqual({ content: 1, refresh: 0 });

    h.clock.advance(2_000);
    const second = await keeper.current();
    expect(await calls()).toEqual({ content: 1, refresh: 1 });
    expect(Date.parse(second.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
    expect(second.content_url).not.toBe(first.content_url);
    expect(refreshed.map((c) => c.content_url)).toEqual([second.content_url]);

    // Fresh again: no further request.
    expect((await keeper.current()).content_url).toBe(second.content_url);
    expect(await calls()).toEqual({ content: 1, refresh: 1 });
    keeper.stop();

    const stored = flatten([store.sets, [...store.entries.entries()]]);
    for (const url of [first.content_url, second.content_url]) {
      expect(stored).not.toContain(url);
      expect(stored).not.toContain(new URL(url).search || url);
    }
    expect(store.sets.every((s) => s.token.accessToken.split('.').length === 3)).toBe(true);
  });

  it('keepFresh with autoRefresh schedules the refresh at 60 s before expiry and stop() cancels it', async () => {
    const parked: { ms: number; signal?: AbortSignal; release: () => void }[] = [];
    const sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
      // Short waits (throttling) pass at once; the long refresh timer waits for the test.
      if (ms < 60_000) return h.clock.sleep(ms, signal);
      return new Promise<void>((resolve, reject) => {
        parked.push({ ms, signal, release: () => resolve() });
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    };
    const auto = h.client({ tokenStore: store, sleep });
    const refreshed: ModuleContent[] = [];
    const keeper = auto.modules.keepFresh(picks.completable.id, {
      userId: learner.uuid,
      autoRefresh: true,
      onRefresh: (c) => refreshed.push(c),
    });
    const first = await keeper.current();
    expect(parked).toHaveLength(1);
    const due = Date.parse(first.expires_at) - 60_000 - h.clock.now();
    expect(Math.abs(parked[0]!.ms - due)).toBeLessThanOrEqual(1_000);

    h.clock.advance(parked[0]!.ms);
    parked[0]!.release();
    await expect.poll(() => refreshed.length, { timeout: 5_000 }).toBe(1);
    expect(await calls()).toEqual({ content: 1, refresh: 1 });
    await expect.poll(() => parked.length, { timeout: 5_000 }).toBe(2);

    keeper.stop();
    expect(parked[1]!.signal?.aborted).toBe(true);
  });
});
