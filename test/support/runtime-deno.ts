/**
 * Runs a TypeScript file of this repository in Deno and reads the JSON report it prints. Deno runs the source as
 * is: it strips the types itself and, because the repository has a package.json, resolves bare imports from the
 * local node_modules (`--node-modules-dir=manual`), so nothing is downloaded and no lock file is written.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, repoRoot } from './runtime-bundle.ts';

/** The Deno binary the `deno` npm package installs (what `npx deno` runs). */
export const denoBinary = join(repoRoot, 'node_modules', '.bin', 'deno');

export interface DenoRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Throws a clear error when Deno is not installed, so a missing runtime fails the test instead of skipping it.
 *
 * @throws Error naming the missing binary and how to get it.
 */
export function requireDeno(): void {
  if (!existsSync(denoBinary)) {
    throw new Error(`Deno is missing: ${denoBinary} does not exist. Run \`npm install\` (the "deno" devDependency).`);
  }
}

/**
 * Runs `deno run --allow-net --allow-read <script> ...args` from the repository root.
 *
 * @param script - Path relative to the repository root.
 * @param args - Passed to the script (`Deno.args`).
 * @param timeoutMs - Kills Deno after this long (default 90 s).
 * @returns Exit code and the captured output.
 */
export function runDeno(script: string, args: string[] = [], timeoutMs = 90_000): Promise<DenoRun> {
  requireDeno();
  const env = { ...process.env, DENO_DIR: join(cacheRoot, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  const argv = ['run', '--no-lock', '--node-modules-dir=manual', '--allow-net', '--allow-read', script, ...args];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(denoBinary, argv, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/**
 * Parses the last line of a run's stdout as JSON.
 *
 * @param run - From {@link runDeno}.
 * @returns The parsed report.
 * @throws Error with Deno's exit code and stderr when it failed or printed no JSON.
 */
export function denoReport(run: DenoRun): unknown {
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.code !== 0 || !last.startsWith('{')) {
    throw new Error(`Deno exited with ${String(run.code)} and no JSON report.\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
  return JSON.parse(last);
}
