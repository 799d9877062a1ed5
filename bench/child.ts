/**
 * Child processes for the memory benchmark: the emulator (its own process, so its memory is not counted) and the
 * measuring client (with `--expose-gc`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface EmulatorProcess {
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts `emulator/cli.ts --port 0` under tsx and waits for the line that names its origin.
 *
 * @param seed - Emulator seed.
 * @param timeoutMs - Give up after this long (default 30 s).
 * @returns The origin and a `stop` that sends SIGTERM and waits for exit.
 * @throws When the emulator exits or prints no origin in time.
 */
export async function startEmulatorProcess(seed: number, timeoutMs = 30_000): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--port', '0', '--seed', String(seed)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const origin = await new Promise<string>((resolveOrigin, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator printed no origin within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /https?:\/\/[\w.:[\]-]+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveOrigin(match[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${String(code)}:\n${output}`));
    });
  });
  return { origin, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/**
 * Runs `bench/memory-client.ts` in a fresh Node with `--expose-gc` and parses its JSON line.
 *
 * @param args - origin, userId, mode.
 * @returns The parsed report.
 * @throws When the child fails or prints no JSON.
 */
export async function runMemoryClient(args: string[]): Promise<Record<string, number | string>> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/memory-client.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  const last = stdout.trim().split('\n').pop() ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`memory client exited with ${String(code)}:\n${stdout}\n${stderr}`);
  return JSON.parse(last) as Record<string, number | string>;
}
