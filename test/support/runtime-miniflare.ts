/**
 * Starts a bundled Worker in workerd through Miniflare 4 and captures everything the runtime logs (its stdout and
 * stderr, structured logs and Miniflare's own log), so a test can assert that workerd printed no warning such as
 * "Cannot perform I/O on behalf of a different request".
 */
import { Log, LogLevel, Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';

/** workerd's `compatibility_date` for the runtime tests (a recent one: what a new Worker would declare). */
export const compatibilityDate = '2025-09-01';

export interface WorkerOptions {
  /** The bundled ES module (from `bundleEntry(…, 'workerd')`). */
  scriptPath: string;
  /** Plain-text bindings (`env.NAME`). */
  bindings?: Record<string, string>;
  /** KV namespace binding names. */
  kvNamespaces?: string[];
}

export interface RunningWorker {
  mf: Miniflare;
  /** Every line workerd or Miniflare logged so far. */
  logs: string[];
  dispose(): Promise<void>;
}

/** Miniflare's logger, recording instead of printing. */
class CapturingLog extends Log {
  readonly lines: string[];
  constructor(lines: string[]) {
    super(LogLevel.DEBUG);
    this.lines = lines;
  }
  protected override log(message: string): void {
    this.lines.push(message);
  }
}

function capture(stream: Readable, lines: string[]): void {
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => lines.push(...chunk.split('\n').filter((l) => l.trim() !== '')));
}

/**
 * Starts the Worker and waits until workerd is ready.
 *
 * @param options - Script and bindings.
 * @returns The Miniflare instance, the captured log lines and a `dispose` to call in `afterAll`.
 * @throws When workerd cannot start (for example the bundle fails to load).
 * @example
 * const worker = await startWorker({ scriptPath: bundle.outfile });
 * const res = await worker.mf.dispatchFetch('http://worker.test/');
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const logs: string[] = [];
  const mf = new Miniflare({
    modules: true,
    scriptPath: options.scriptPath,
    compatibilityDate,
    bindings: options.bindings ?? {},
    kvNamespaces: options.kvNamespaces ?? [],
    // A fixed placeholder: otherwise Miniflare tries to download request.cf data from a Cloudflare host.
    cf: false,
    log: new CapturingLog(logs),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      capture(stdout, logs);
      capture(stderr, logs);
    },
    handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
      logs.push(`${level}: ${message}`);
    },
  });
  await mf.ready;
  return { mf, logs, dispose: () => mf.dispose() };
}

/**
 * Dispatches a request to the Worker and reads its body as JSON, failing clearly when the Worker hangs (what
 * workerd does when a request awaits a promise that belongs to an earlier, finished request).
 *
 * @param worker - From {@link startWorker}.
 * @param url - Request URL.
 * @param timeoutMs - How long to wait (default 60 s).
 * @returns Status and parsed JSON body.
 * @throws Error naming the likely cause, with the captured logs, when no answer arrives in time.
 */
export async function dispatchJson(worker: RunningWorker, url: string, timeoutMs = 60_000): Promise<{ status: number; body: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the Worker did not answer ${url} within ${timeoutMs} ms (a promise shared between requests?)\n${worker.logs.join('\n')}`)),
      timeoutMs,
    );
  });
  try {
    const response = await Promise.race([worker.mf.dispatchFetch(url), timeout]);
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new Error(`the Worker answered ${response.status} with non-JSON: ${text.slice(0, 500)}\n${worker.logs.join('\n')}`);
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Log lines that reveal a request touching another request's I/O or promises (what workerd warns about when a
 * promise or stream is shared between requests).
 *
 * @param logs - Captured lines.
 * @returns The offending lines (empty when clean).
 */
export function crossRequestWarnings(logs: string[]): string[] {
  return logs.filter((l) => /different request|cross-request|request context/i.test(l));
}
