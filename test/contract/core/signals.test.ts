/**
 * A `signal` that is not an AbortSignal is refused up front, and never ends the process from a timer callback.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/ping-bad-signal.ts', import.meta.url));

describe('signals', () => {
  it('try { await client.ping({ signal: {} }) } catch {} leaves the process running (child process)', async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [script], { timeout: 30_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
    expect(result.stderr).not.toMatch(/TypeError|Uncaught/);
    expect(result.stdout.trim()).toBe('alive configuration_error');
    expect(result.code).toBe(0);
  });
});
