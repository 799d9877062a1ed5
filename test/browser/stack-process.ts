/**
 * Runs `npm start`'s script as a user would (a child process on real ports) and reads what it prints, for the stack
 * and browser tests. Also finds Chromium for playwright-core.
 */
import { spawn, execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A running `scripts/start.ts` and what it printed. */
export interface RunningStack {
  child: ChildProcess;
  /** Everything printed on stdout so far. */
  stdout: () => string;
  stderr: () => string;
  /** The origin printed on the line naming `part` (`emulator`, `relay`, `demo page`), if any. */
  origin(part: string): string | undefined;
  /** Sends SIGINT to the process group (what Ctrl+C in a terminal does) and resolves with npm's exit code. */
  interrupt(): Promise<number | null>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Runs `npm start -- <args>` and returns at once (for a test that acts before the stack is ready).
 * @param args e.g. `['--port', '0']`.
 * @param env the child's whole environment.
 * @returns the stack, starting.
 */
export function spawnStart(args: string[], env: NodeJS.ProcessEnv): RunningStack {
  // What the README says to type: `npm start -- <args>` (bash scripts/start.sh, which execs node scripts/start.ts).
  // Its own process group, so `interrupt` can do what Ctrl+C in a terminal does: signal the whole foreground group.
  const child = spawn('npm', ['start', '--silent', '--', ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    origin: (part) => new RegExp(`^\\s*${part}:\\s+(http://\\S+?)/?$`, 'm').exec(out)?.[1],
    interrupt: () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
      return exited;
    },
    exited,
  };
}

/**
 * Runs `npm start -- <args>` and waits until it prints "Stop with Ctrl+C." or exits.
 * @param args e.g. `['--port', '0']`.
 * @param env the child's whole environment.
 * @returns the running stack (or one that has already exited: check `exited`).
 */
export async function runStart(args: string[], env: NodeJS.ProcessEnv): Promise<RunningStack> {
  const stack = spawnStart(args, env);
  const { stdout } = stack.child;
  await Promise.race([
    stack.exited,
    new Promise<void>((ready) => {
      const check = () => {
        if (stack.stdout().includes('Stop with Ctrl+C.')) {
          stdout?.off('data', check);
          ready();
        }
      };
      stdout?.on('data', check);
    }),
  ]);
  return stack;
}

/** A copy of this process's environment without any PARTNER_LEARNING_* variable (emulator mode). */
export function emulatorEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PARTNER_LEARNING_') && k !== 'RELAY_KEYS' && k !== 'PORT'));
}

/**
 * @returns the Chromium binary: CHROMIUM_PATH, else `chromium` or `chromium-browser` on PATH.
 * @throws naming `bash scripts/ensure-chromium.sh`, which installs Debian's package, when none is found.
 */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // Not on PATH: try the next name.
    }
  }
  throw new Error('No Chromium found: run `bash scripts/ensure-chromium.sh` (installs Debian\'s chromium) or set CHROMIUM_PATH');
}

/** The flags the toolchain notes give for headless Chromium on these machines. */
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
