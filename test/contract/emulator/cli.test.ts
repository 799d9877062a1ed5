/**
 * The emulator CLI as a real process (emulator contract: Starting it): prints one line with its origin once it
 * accepts requests, serves the control interface, exits 0 on SIGTERM.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Partners } from '../../support/emulator-schemas.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('emulator CLI', () => {
  it('--port 0 prints its origin, serves /_emulator/partners and exits 0 on SIGTERM', async () => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['emulator/cli.ts', '--port', '0'], {
      cwd: root,
      // The tsx shim runs `node` from PATH: make it this Node (24), not the machine default.
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const exited = once(child, 'exit');
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no origin line within 20 s; stderr: ${stderr}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
          if (m && stdout.includes('\n')) {
            clearTimeout(timer);
            resolve(m[0]);
          }
        });
        child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited early with ${code}; stderr: ${stderr}`)); });
      });
      expect(Number(new URL(origin).port)).toBeGreaterThan(0);
      const res = await fetch(`${origin}/_emulator/partners`);
      expect(res.status).toBe(200);
      const partners = Partners.parse(await res.json());
      expect(partners[0]?.environments.sandbox.baseUrl).toBe(`${origin}/sandbox/v1`);
      const originLines = stdout.split('\n').filter((l) => l.includes(origin));
      expect(originLines).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  }, 40_000);
});
