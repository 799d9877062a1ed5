/**
 * The built package loaded twice in one process, as the ESM build (`import`) and the CommonJS build (`require`):
 * two copies of the module state, yet clients of one API key share its pause, because the per-key limiters live on
 * `globalThis` under a `Symbol.for` key. Runs on what `npm run build` produces (built first when missing).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { repoRoot } from '../support/runtime-bundle.ts';

type ClientModule = typeof import('../../core/index.ts');

/** Where the build puts the client (the `partner-learning-client` workspace package's `dist`). */
const candidates = [join(repoRoot, 'core', 'dist', 'index')];

function builtEntry(): string | undefined {
  return candidates.find((base) => existsSync(`${base}.js`) && existsSync(`${base}.cjs`));
}

const origin = 'http://dual-build.test';
let esm: ClientModule;
let cjs: ClientModule;

beforeAll(async () => {
  if (!builtEntry()) execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'ignore' });
  const base = builtEntry();
  if (!base) throw new Error(`npm run build produced none of ${candidates.map((c) => `${c}.{js,cjs}`).join(', ')}`);
  esm = (await import(pathToFileURL(`${base}.js`).href)) as ClientModule;
  cjs = createRequire(import.meta.url)(`${base}.cjs`) as ClientModule;
});

/** An emulator with two partners, and a fetch per client that records the paths it sent. */
async function setUp(seed: number) {
  const emulator = createEmulator({ seed });
  const partners = emulator.partners(origin);
  const sent: Record<string, string[]> = {};
  const clientOf = (build: ClientModule, name: string, partner: number, maxAttempts = 5) => {
    const env = partners[partner]?.environments.sandbox;
    const rw = env?.clients[0];
    if (!env || !rw) throw new Error('the emulator listed no sandbox client');
    sent[name] = [];
    const record = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      sent[name]?.push(`/${new URL(request.url).pathname.split('/').pop() ?? ''}`);
      return emulator.fetch(request);
    };
    return build.createClient({
      tokenUrl: env.tokenUrl, baseUrl: env.baseUrl, clientId: rw.clientId, clientSecret: rw.clientSecret, apiKey: env.apiKey,
      fetch: record as typeof fetch, tokenStore: new build.MemoryTokenStore(), retry: { maxAttempts },
    });
  };
  const control = (path: string, body: unknown): Promise<Response> =>
    emulator.fetch(new Request(`${origin}/_emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return { clientOf, sent, control };
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('the ESM and the CommonJS build in one process', () => {
  it('are two copies of the module', () => {
    expect(esm.createClient).not.toBe(cjs.createClient);
  });

  it.each([
    ['ESM', 'CommonJS'],
    ['CommonJS', 'ESM'],
  ] as const)('a 429 met by a client of the %s build pauses a client of the %s build with the same API key', async (first, second) => {
    const build = (name: string): ClientModule => (name === 'ESM' ? esm : cjs);
    const { clientOf, sent, control } = await setUp(first === 'ESM' ? 9101 : 9102);
    const throttled = clientOf(build(first), 'throttled', 0, 1);
    const sameKey = clientOf(build(second), 'sameKey', 0);
    const otherKey = clientOf(build(second), 'otherKey', 1);
    await Promise.all([sameKey.ping(), otherKey.ping()]);

    expect((await control('/faults', { rate: 1, statuses: [429], pathPattern: 'categories' })).status).toBe(200);
    await expect(throttled.categories.list().toArray({ max: 1 })).rejects.toMatchObject({ code: 'throttled' });
    expect((await control('/faults', { rate: 0, statuses: [429] })).status).toBe(200);

    // The 429 paused the key (backoff of at least 500 ms): the other build's client of that key waits, another
    // key's client does not.
    const controller = new AbortController();
    const waiting = sameKey.ping({ signal: controller.signal });
    await otherKey.ping();
    await turns(10);
    expect(sent['sameKey']).toEqual(['/ping']);
    expect(sent['otherKey']).toEqual(['/ping', '/ping']);
    controller.abort(new Error('stopped waiting'));
    await expect(waiting).rejects.toThrow('stopped waiting');
    expect(sent['sameKey']).toEqual(['/ping']);
  });
});
