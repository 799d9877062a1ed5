/**
 * Runs the relay for `npm start` through its own machinery, `npm run relay -- --port N` (workerd with a local KV
 * namespace, relay contract "Starting it locally"), and waits for the line that gives its origin.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { StartError } from './start-options.ts';

/** A relay process the stack started. */
export interface RelayProcess {
  origin: string;
  /** Stops the relay (SIGTERM to the process this script started, then SIGKILL after 10 s). */
  stop(): Promise<void>;
}

const originLine = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/;

/**
 * @param port the port (0 picks a free one).
 * @param env the relay's settings (PARTNER_LEARNING_*, RELAY_KEYS, LEARNER_TOKEN_SECRET, ALLOWED_ORIGINS).
 * @param cwd the repository root.
 * @param signal aborts the start: the relay is stopped (its whole process group) and the promise rejects.
 * @returns the running relay and its origin.
 * @throws StartError when the relay exits before it prints its origin (its last output lines say why), or the start
 *   was aborted.
 */
export function startRelay(port: number, env: NodeJS.ProcessEnv, cwd: string, signal?: AbortSignal): Promise<RelayProcess> {
  // Its own process group, so stopping it reaches npm, wrangler and workerd alike, and a terminal's Ctrl-C goes to
  // this script only, which then stops the relay in order.
  const child = spawn('npm', ['run', '--silent', 'relay', '--', '--port', String(port)], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString('utf8').split('\n').filter((l) => l.trim() !== ''));
    tail.splice(0, Math.max(0, tail.length - 20));
  };
  child.stderr?.on('data', keep);
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new StartError(`The relay stopped before it was ready (exit ${code ?? 'by signal'}):\n  ${tail.join('\n  ')}`));
    // Ctrl+C before the relay printed its origin: stopped here, or its workerd outlived the stack and held the port.
    const onAbort = () => {
      child.off('exit', onExit);
      void stopChild(child).then(() => reject(new StartError('The relay was stopped while it started.')));
    };
    child.once('exit', onExit);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => {
      keep(chunk);
      const found = originLine.exec(chunk.toString('utf8'));
      if (!found || signal?.aborted) return;
      child.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      resolve({ origin: found[0], stop: () => stopChild(child) });
    });
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGTERM');
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const force = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}
