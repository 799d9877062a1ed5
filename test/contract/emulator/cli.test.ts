/**
 * The emulator CLI as a real process (emulator contract: Starting it): prints one line with its origin once it
 * accepts requests, serves the control interface, exits 0 on SIGTERM.
 */
import { describe, expect, it } from 'vitest';
import { startCli } from '../../support/emulator-cli.ts';
import { Partners } from '../../support/emulator-schemas.ts';

describe('emulator CLI', () => {
  it('--port 0 prints its origin, serves /_emulator/partners and exits 0 on SIGTERM', async () => {
    const cli = await startCli();
    try {
      const { origin } = cli;
      expect(Number(new URL(origin).port)).toBeGreaterThan(0);
      const res = await fetch(`${origin}/_emulator/partners`);
      expect(res.status).toBe(200);
      const partners = Partners.parse(await res.json());
      expect(partners[0]?.environments.sandbox.baseUrl).toBe(`${origin}/sandbox/v1`);
      const originLines = cli.stdout().split('\n').filter((l) => l.includes(origin));
      expect(originLines).toHaveLength(1);
    } finally {
      expect(await cli.stop()).toEqual({ code: 0, signal: null });
    }
  }, 40_000);
});
