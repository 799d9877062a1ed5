/**
 * The shared relay suite: the same checks against the relay on workerd, Deno and Node, each over a loopback socket
 * and each in front of the emulator over a socket. Tests run in order and build on each other's learners.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayHttp, startUpstream, type Upstream } from './support/fixture.ts';
import type { RelayTarget, StartRelay } from './support/targets.ts';
import { routeChecks } from './suite-routes.ts';
import { securityChecks } from './suite-security.ts';

/** What the sections share; filled in `beforeAll`. */
export interface SuiteState {
  upstream: Upstream;
  relay: RelayTarget;
  http: RelayHttp;
  /** Learners registered through the relay, by name. */
  learners: Record<string, string>;
  /** Learner tokens minted through the relay, by learner name. */
  tokens: Record<string, string>;
}

export interface SuiteOptions {
  /** Whether a restarted relay shares the token cache (workerd KV, Deno KV; not Node's memory). */
  durableCache: boolean;
}

/**
 * Registers the suite for one runtime.
 *
 * @param name The runtime's name.
 * @param start Starts the relay there.
 * @param options What the runtime's token cache can do.
 */
export function relaySuite(name: string, start: StartRelay, options: SuiteOptions): void {
  describe(`relay on ${name}`, () => {
    const state = {} as SuiteState;
    let dir = '';
    let kvPath = '';

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'relay-kv-'));
      kvPath = name === 'deno' ? join(dir, 'kv.sqlite') : dir;
      state.upstream = await startUpstream();
      state.relay = await start(state.upstream.settings, kvPath);
      state.http = new RelayHttp(state.relay.origin);
      state.learners = {};
      state.tokens = {};
    });
    afterAll(async () => {
      await state.relay?.stop();
      await state.upstream?.server.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('serves a cold burst of 20 calls with one token request', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => state.http.backend('/v1/courses/1')));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(await state.upstream.tokenRequests()).toBe(1);
    });

    routeChecks(state);
    securityChecks(state);

    it('made one upstream token request in its whole lifetime', async () => {
      expect(await state.upstream.tokenRequests()).toBe(1);
    });

    // Node keeps the token in process memory only: a restart there has nothing to find.
    if (options.durableCache) it('a new isolate on the same cache makes no token request', async () => {
      await state.relay.stop();
      state.relay = await start(state.upstream.settings, kvPath);
      const again = await new RelayHttp(state.relay.origin).backend('/v1/courses/2');
      expect(again.status).toBe(200);
      expect(await state.upstream.tokenRequests()).toBe(1);
    });
  });
}
