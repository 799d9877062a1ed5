/**
 * The core client (and the emulator) in workerd, the Cloudflare Workers runtime, through Miniflare 4.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer } from '../../emulator/server.ts';
import { bundleEntry, removeBundle, type Bundle } from '../support/runtime-bundle.ts';
import { expectScenarioPassed } from '../support/runtime-expect.ts';
import type { KvStoreStats } from '../support/runtime-kv-token-store.ts';
import { crossRequestWarnings, dispatchJson, startWorker, type RunningWorker } from '../support/runtime-miniflare.ts';
import type { PartnerCredentials, ScenarioReport } from '../support/runtime-scenario.ts';

describe('workerd: core client and emulator in one isolate', () => {
  let bundle: Bundle | undefined;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    bundle = await bundleEntry('test/support/runtime-worker-inprocess.ts', 'workerd');
    worker = await startWorker({ scriptPath: bundle.outfile });
  });
  afterAll(async () => {
    await worker?.dispose();
    await removeBundle(bundle);
  });

  it('runs the whole scenario, twice in the same isolate, without cross-request warnings', async () => {
    if (!worker) throw new Error('workerd did not start');
    // Twice: the second request meets whatever module-level state (limiter, token cache) the first one left.
    for (const _round of [1, 2]) {
      const { status, body } = await dispatchJson(worker, 'http://worker.test/');
      expect(status).toBe(200);
      expectScenarioPassed(body, 'Cloudflare-Workers');
    }
    expect(crossRequestWarnings(worker.logs)).toEqual([]);
  });

  it('captures workerd\'s cross-request error when a Worker does share I/O (harness check)', async () => {
    if (!bundle) throw new Error('no bundle folder');
    // A deliberately wrong Worker: the second request writes to a stream the first request created.
    const script = join(bundle.dir, 'shared-io.mjs');
    await writeFile(
      script,
      `let shared;
export default { async fetch(request) {
  if (new URL(request.url).pathname === '/first') { shared = new TransformStream(); return Response.json({}); }
  try { await shared.writable.getWriter().write(new Uint8Array([1])); return Response.json({ wrote: true }); }
  catch (error) { console.error(error.message); return Response.json({ error: error.message }, { status: 500 }); }
} };`,
    );
    const bad = await startWorker({ scriptPath: script });
    try {
      await dispatchJson(bad, 'http://worker.test/first');
      const second = await dispatchJson(bad, 'http://worker.test/second');
      expect(second.status).toBe(500);
      expect(crossRequestWarnings(bad.logs).join('\n')).toContain('Cannot perform I/O on behalf of a different request');
    } finally {
      await bad.dispose();
    }
  });
});

describe('workerd: core client calling the emulator over a socket, token in Workers KV', () => {
  let bundle: Bundle | undefined;
  let worker: RunningWorker | undefined;
  let server: Awaited<ReturnType<typeof startEmulatorServer>> | undefined;

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0 });
    const partner = server.emulator.partners(server.origin)[0] as PartnerCredentials | undefined;
    const env = partner?.environments['sandbox'];
    const rw = env?.clients[0];
    if (!env || !rw) throw new Error('the emulator listed no sandbox partner with a client');
    bundle = await bundleEntry('test/support/runtime-worker-kv.ts', 'workerd');
    worker = await startWorker({
      scriptPath: bundle.outfile,
      kvNamespaces: ['TOKENS'],
      bindings: {
        TOKEN_URL: env.tokenUrl,
        BASE_URL: env.baseUrl,
        CLIENT_ID: rw.clientId,
        CLIENT_SECRET: rw.clientSecret,
        API_KEY: env.apiKey,
      },
    });
  });
  afterAll(async () => {
    await worker?.dispose();
    await server?.close();
    await removeBundle(bundle);
  });

  it('fetches one token, caches it in KV and reuses it in the next request', async () => {
    if (!worker || !server) throw new Error('workerd or the emulator did not start');
    type Report = ScenarioReport & { kv: KvStoreStats };
    const first = (await dispatchJson(worker, 'http://worker.test/')).body as Report;
    const second = (await dispatchJson(worker, 'http://worker.test/')).body as Report;
    expectScenarioPassed(first, 'Cloudflare-Workers');
    expectScenarioPassed(second, 'Cloudflare-Workers');
    expect(first.kv.writes).toBe(1);
    expect(second.kv.writes).toBe(0);
    expect(second.kv.hits).toBeGreaterThanOrEqual(1);

    const log = (await (await fetch(`${server.origin}/_emulator/requests`)).json()) as { path: string }[];
    expect(log.filter((r) => r.path.endsWith('/oauth2/token'))).toHaveLength(1);
    expect(log.length).toBeGreaterThan(10);
    expect(crossRequestWarnings(worker.logs)).toEqual([]);
  });
});
