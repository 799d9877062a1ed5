/**
 * The opt-in `UPSTREAM_LIMITER` Durable Object (`edge/upstream-limiter.ts`) in workerd: two relay Workers (two
 * isolates, each its own client) bound to one object, against the emulator over a socket. A 503 that one isolate
 * met pauses the key for the other too, which isolates that each learn alone cannot do; without the binding the other
 * isolate's call goes at once.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Miniflare, type WorkerOptions } from 'miniflare';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleRelay } from '../../scripts/relay-worker.ts';
import { repoRoot } from '../support/runtime-bundle.ts';
import { RELAY_KEY, startUpstream, type Upstream } from './support/fixture.ts';

interface Logged {
  path: string;
  status: number;
  at: string;
}

/** Two relay Workers in one workerd; with `shared`, both bound to relay-a's `UpstreamLimiter`. */
async function twoRelays(settings: Record<string, string>, shared: boolean): Promise<Miniflare> {
  const config = JSON.parse((await readFile(join(repoRoot, 'wrangler.jsonc'), 'utf8'))
    .split('\n').filter((line) => !line.trim().startsWith('//')).join('\n')) as { compatibility_date: string; compatibility_flags?: string[] };
  const scriptPath = await bundleRelay();
  const worker = (name: string, durableObjects: WorkerOptions['durableObjects']): WorkerOptions => ({
    name, modules: true, scriptPath, compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [], bindings: { ...settings, RELAY_LOG_LEVEL: 'warn' },
    kvNamespaces: ['TOKEN_CACHE'], ...(shared ? { durableObjects } : {}),
  });
  const mf = new Miniflare({
    workers: [
      worker('relay-a', { UPSTREAM_LIMITER: 'UpstreamLimiter' }),
      worker('relay-b', { UPSTREAM_LIMITER: { className: 'UpstreamLimiter', scriptName: 'relay-a' } }),
    ],
    host: '127.0.0.1', port: 0, cf: false,
  });
  await mf.ready;
  return mf;
}

/** Pings the service through one relay Worker (the backend's relay key). */
async function ping(mf: Miniflare, name: string): Promise<number> {
  const worker = await mf.getWorker(name);
  const response = await worker.fetch('http://relay.test/v1/ping', { headers: { 'x-relay-key': RELAY_KEY } });
  await response.text();
  return response.status;
}

/**
 * relay-a meets a 503 (its call is left retrying); as soon as the service logged it, the fault ends and relay-b
 * pings. Returns how long after that 503 relay-b's ping reached the service (ms).
 */
async function afterA503(upstream: Upstream, mf: Miniflare): Promise<number> {
  const origin = upstream.server.origin;
  const log = async (): Promise<Logged[]> => (await (await fetch(`${origin}/_emulator/requests`)).json()) as Logged[];
  const pings = async (): Promise<Logged[]> => (await log()).filter((r) => r.path.endsWith('/v1/ping'));
  expect([await ping(mf, 'relay-a'), await ping(mf, 'relay-b')]).toEqual([200, 200]); // tokens fetched, both warm
  await fetch(`${origin}/_emulator/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rate: 1, statuses: [503], pathPattern: 'ping' }),
  });
  const seenBefore = (await pings()).length;
  const a = ping(mf, 'relay-a');
  let failed: Logged | undefined;
  while (!failed) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    failed = (await pings()).slice(seenBefore).find((r) => r.status === 503);
  }
  await fetch(`${origin}/_emulator/faults`, { method: 'DELETE' });
  expect(await ping(mf, 'relay-b')).toBe(200);
  expect(await a).toBe(200); // relay-a's retry, after its backoff
  const after = (await pings()).slice(seenBefore).filter((r) => r.status === 200);
  return Math.min(...after.map((r) => Date.parse(r.at))) - Date.parse(failed.at);
}

describe('relay isolates sharing the UPSTREAM_LIMITER Durable Object', () => {
  let upstream: Upstream | undefined;
  let mf: Miniflare | undefined;

  afterEach(async () => {
    await mf?.dispose();
    await upstream?.server.close();
    mf = undefined;
    upstream = undefined;
  });

  it('a 503 one isolate met pauses the key for the other (at least half the first backoff, 500 ms)', async () => {
    upstream = await startUpstream();
    mf = await twoRelays(upstream.settings, true);
    expect(await afterA503(upstream, mf)).toBeGreaterThanOrEqual(450);
  }, 60_000);

  it('without the binding, each isolate paces alone: the other\'s call goes at once', async () => {
    upstream = await startUpstream();
    mf = await twoRelays(upstream.settings, false);
    expect(await afterA503(upstream, mf)).toBeLessThan(450);
  }, 60_000);
});
