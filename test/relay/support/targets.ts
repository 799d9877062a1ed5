/**
 * Starts the relay on each runtime, listening on a loopback port, and records every line it prints: workerd
 * (Miniflare 4 with a real KV namespace and the rate-limit binding), Deno (`deno serve` with Deno KV) and Node
 * (`edge/node.ts` on @hono/node-server). The shared suite talks to all three over sockets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { cacheRoot, repoRoot } from '../../support/runtime-bundle.ts';
import { denoBinary, requireDeno } from '../../support/runtime-deno.ts';
import { bundleRelay, startRelayWorker } from '../../../scripts/relay-worker.ts';

/** A running relay. */
export interface RelayTarget {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Everything the relay printed so far. */
  lines: string[];
  stop(): Promise<void>;
}

/** Starts a relay with these settings (a second start with the same `kvPath` is a new isolate on the same KV). */
export type StartRelay = (settings: Record<string, string>, kvPath?: string) => Promise<RelayTarget>;

/** workerd through Miniflare; `kvPath` persists the KV namespace. */
export const startWorkerd: StartRelay = async (settings, kvPath) => {
  const lines: string[] = [];
  const worker = await startRelayWorker({
    settings,
    scriptPath: await bundleRelay(),
    ...(kvPath ? { kvPersist: kvPath } : {}),
    onLine: (line) => lines.push(line),
  });
  return { origin: worker.origin, lines, stop: () => worker.dispose() };
};

function waitForOrigin(child: ChildProcess, lines: string[], what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} printed no origin within 60 s:\n${lines.join('\n')}`)), 60_000);
    const onData = (chunk: string): void => {
      for (const line of chunk.split('\n')) {
        if (line.trim() === '') continue;
        lines.push(line);
        const origin = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
        if (origin && /listening/i.test(line)) {
          clearTimeout(timer);
          resolve(origin);
        }
      }
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${String(code)} before listening:\n${lines.join('\n')}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Deno: `deno serve` on the source, npm packages from the local node_modules; `kvPath` is the Deno KV file. */
export const startDeno: StartRelay = async (settings, kvPath) => {
  requireDeno();
  const lines: string[] = [];
  const args = ['serve', '--no-lock', '--node-modules-dir=manual', '--unstable-kv', '--allow-net', '--allow-env', '--allow-read',
    '--allow-write', '--host', '127.0.0.1', '--port', '0', 'edge/deno.ts'];
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    DENO_DIR: join(cacheRoot, 'deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
    NO_COLOR: '1',
    DENO_KV_PATH: kvPath ?? join(cacheRoot, `relay-kv-${process.pid}-${Date.now()}.sqlite`),
    ...settings,
  };
  const child = spawn(denoBinary, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const origin = await waitForOrigin(child, lines, 'deno serve');
  return { origin, lines, stop: () => stopChild(child) };
};

/** Node: `edge/node.ts` in a child process (memory token cache; `kvPath` is ignored). */
export const startNode: StartRelay = async (settings) => {
  const lines: string[] = [];
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PORT: '0', ...settings };
  const child = spawn(process.execPath, ['--import', 'tsx', 'edge/node.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const origin = await waitForOrigin(child, lines, 'edge/node.ts');
  return { origin, lines, stop: () => stopChild(child) };
};
