/**
 * Runs `emulator/cli.ts` (what `npm run emulator` runs) as a real child process on a free port, for tests that
 * check the emulator as partners start it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A running CLI emulator. */
export interface CliEmulator {
  /** The origin from the line the CLI printed, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Everything the CLI printed on stdout so far. */
  stdout(): string;
  /** Sends SIGTERM and resolves with how the process ended. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the CLI with `--port 0` and waits for its origin line.
 * @returns the running emulator; call `stop()` in a finally or afterAll.
 * @throws Error when no origin line arrives within 20 s or the process exits first (with its stderr).
 */
export async function startCli(): Promise<CliEmulator> {
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
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    return { code, signal };
  };
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
    return { origin, stdout: () => stdout, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
