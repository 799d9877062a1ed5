/**
 * `npm run relay` (scripts/relay.ts) as a partner would run it, and the offline Workers build of `wrangler.jsonc`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/runtime-bundle.ts';
import { RELAY_KEY, startUpstream, type Upstream } from './support/fixture.ts';

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: Record<string, string>, onLine?: (line: string, kill: () => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env } });
    let output = '';
    const onData = (chunk: string): void => {
      output += chunk;
      for (const line of chunk.split('\n')) if (line.trim()) onLine?.(line, () => child.kill('SIGTERM'));
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run relay', () => {
  let upstream: Upstream | undefined;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream?.server.close();
  });

  it('prints its origin once it serves, relays, and exits 0 on SIGTERM', async () => {
    if (!upstream) throw new Error('no emulator');
    const statuses: number[] = [];
    let printed = '';
    const result = await run(process.execPath, ['--import', 'tsx', 'scripts/relay.ts', '--port', '0'], upstream.settings, (line, kill) => {
      const origin = /relay listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
      if (!origin) return;
      printed = origin;
      void fetch(`${origin}/v1/ping`, { headers: { 'x-relay-key': RELAY_KEY } })
        .then((res) => statuses.push(res.status))
        .finally(kill);
    });
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(statuses).toEqual([200]);
    expect(result.code).toBe(0);
  });

  it('keeps its KV on disk: a restart finds the token and makes no token request', async () => {
    if (!upstream) throw new Error('no emulator');
    const kvDir = await mkdtemp(join(tmpdir(), 'relay-kv-cli-'));
    try {
      const once = async (): Promise<void> => {
        await run(process.execPath, ['--import', 'tsx', 'scripts/relay.ts', '--port', '0'], { ...upstream!.settings, RELAY_KV_DIR: kvDir }, (line, kill) => {
          const origin = /relay listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
          if (origin) void fetch(`${origin}/v1/courses/1`, { headers: { 'x-relay-key': RELAY_KEY } }).finally(kill);
        });
      };
      const before = await upstream.tokenRequests();
      await once();
      expect(await upstream.tokenRequests()).toBe(before + 1);
      await once();
      expect(await upstream.tokenRequests()).toBe(before + 1);
    } finally {
      await rm(kvDir, { recursive: true, force: true });
    }
  });

  it('refuses to start and names a missing or malformed setting, never its value', async () => {
    if (!upstream) throw new Error('no emulator');
    const { RELAY_KEYS: _dropped, ...rest } = upstream.settings;
    const missing = await run(process.execPath, ['--import', 'tsx', 'scripts/relay.ts', '--port', '0'], rest);
    expect(missing.code).not.toBe(0);
    expect(missing.output).toContain('RELAY_KEYS');
    const short = await run(process.execPath, ['--import', 'tsx', 'scripts/relay.ts', '--port', '0'], { ...upstream.settings, LEARNER_TOKEN_SECRET: 'short-secret-value' });
    expect(short.code).not.toBe(0);
    expect(short.output).toContain('LEARNER_TOKEN_SECRET');
    expect(short.output).not.toContain('short-secret-value');
  });
});

describe('wrangler deploy --dry-run', () => {
  it('builds the Worker offline with its KV and rate-limit bindings', async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'relay-dry-'));
    try {
      const wrangler = join(repoRoot, 'node_modules', '.bin', 'wrangler');
      const result = await run(wrangler, ['deploy', '--dry-run', '--outdir', outdir], { WRANGLER_SEND_METRICS: 'false', CI: '1' });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain('env.TOKEN_CACHE');
      expect(result.output).toContain('env.LEARNER_RATE_LIMIT');
      expect(await readdir(outdir)).toContain('workers.js');
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
