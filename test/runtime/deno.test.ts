/**
 * The core client in Deno 2: the repository's TypeScript source run directly by Deno (no bundle), with npm
 * packages read from the local node_modules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer } from '../../emulator/server.ts';
import { denoReport, requireDeno, runDeno } from '../support/runtime-deno.ts';
import { expectScenarioPassed } from '../support/runtime-expect.ts';

const entry = 'test/support/runtime-deno-entry.ts';

describe('Deno: core client', () => {
  let server: Awaited<ReturnType<typeof startEmulatorServer>> | undefined;

  beforeAll(async () => {
    requireDeno();
    server = await startEmulatorServer({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs the whole scenario against the emulator in-process inside Deno', async () => {
    expectScenarioPassed(denoReport(await runDeno(entry)), 'Deno/');
  });

  it('runs the whole scenario against the Node emulator over a socket', async () => {
    if (!server) throw new Error('the emulator did not start');
    expectScenarioPassed(denoReport(await runDeno(entry, [server.origin])), 'Deno/');
    const log = (await (await fetch(`${server.origin}/_emulator/requests`)).json()) as { path: string }[];
    expect(log.filter((r) => r.path.endsWith('/oauth2/token'))).toHaveLength(1);
  });
});

describe('Deno: a limiter host on Deno.serve', () => {
  it('two clients of one key, each told a one-call plan\'s rate, collide alone and take turns through the host', async () => {
    requireDeno();
    const server = await startEmulatorServer({ port: 0 });
    try {
      const report = denoReport(await runDeno('test/support/runtime-deno-limiter-host.ts', [server.origin])) as {
        runtime: string; alone: number[]; shared: number[]; hostErrors: string[];
      };
      expect(report.runtime).toMatch(/^Deno\//);
      expect(report.alone).toContain(429);
      expect(report.shared).toEqual([200, 200, 200, 200, 200, 200]);
      expect(report.hostErrors).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});
