/**
 * Runs the relay's Workers entry (`edge/workers.ts`) in workerd through Miniflare 4, with a local KV namespace and
 * the rate-limit binding of `wrangler.jsonc`: what `npm run relay`, the workerd test run and the benchmark start.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Log, LogLevel, Miniflare } from 'miniflare';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(repoRoot, 'node_modules', '.cache', 'partner-learning-relay');

/** Every setting of the relay contract, plus the log level: what is passed from the environment as bindings. */
export const RELAY_SETTINGS = [
  'PARTNER_LEARNING_TOKEN_URL',
  'PARTNER_LEARNING_BASE_URL',
  'PARTNER_LEARNING_CLIENT_ID',
  'PARTNER_LEARNING_CLIENT_SECRET',
  'PARTNER_LEARNING_API_KEY',
  'PARTNER_LEARNING_SCOPES',
  'RELAY_KEYS',
  'LEARNER_TOKEN_SECRET',
  'ALLOWED_ORIGINS',
  'RELAY_LOG_LEVEL',
  'RELAY_DEADLINE_MS',
  'RELAY_PUBLIC_ORIGIN',
  'RELAY_API_REFERENCE',
  'RELAY_API_REFERENCE_SCRIPT',
] as const;

/**
 * @param env Usually `process.env`.
 * @returns The relay settings that are set, as Miniflare text bindings.
 */
export function relaySettingsFrom(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RELAY_SETTINGS) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

interface WranglerConfig {
  compatibility_date: string;
  compatibility_flags?: string[];
  ratelimits?: { name: string; namespace_id: string; simple: { limit: number; period: 10 | 60 } }[];
}

/** `wrangler.jsonc` without its `//` comment lines (the only comments it has). */
async function wranglerConfig(): Promise<WranglerConfig> {
  const text = await readFile(join(repoRoot, 'wrangler.jsonc'), 'utf8');
  return JSON.parse(text.split('\n').filter((line) => !line.trim().startsWith('//')).join('\n')) as WranglerConfig;
}

/**
 * Bundles `edge/workers.ts` as a Worker would be bundled (workerd package conditions).
 *
 * @returns The bundle's path.
 */
export async function bundleRelay(): Promise<string> {
  return bundleWorker(join(repoRoot, 'edge', 'workers.ts'), 'relay-worker.mjs');
}

/**
 * Bundles a Worker module for Miniflare (the relay, or a benchmark's comparison Worker).
 *
 * @param entry The module's entry file.
 * @param name The bundle's file name in the cache.
 * @returns The bundle's path.
 */
export async function bundleWorker(entry: string, name: string): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const outfile = join(cacheDir, name);
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
  });
  return outfile;
}

export interface RelayWorkerOptions {
  /** Relay settings as text bindings. */
  settings: Record<string, string>;
  /** 0 (default) picks a free port. */
  port?: number;
  /** A folder that keeps the KV namespace between runs (a new isolate on the same KV); default in memory. */
  kvPersist?: string;
  /** The bundle from {@link bundleRelay} (bundled now when absent). */
  scriptPath?: string;
  /** Each line workerd prints (the relay's JSON log lines). */
  onLine?: (line: string) => void;
  /** A port for workerd's DevTools inspector (CPU profiles in benchmarks); none by default. */
  inspectorPort?: number;
  /** Binds the opt-in `UPSTREAM_LIMITER` Durable Object (`edge/upstream-limiter.ts`); unbound by default, as in `wrangler.jsonc`. */
  upstreamLimiter?: boolean;
}

export interface RelayWorker {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  mf: Miniflare;
  dispose(): Promise<void>;
}

class QuietLog extends Log {
  constructor() {
    super(LogLevel.WARN);
  }
}

function lines(stream: Readable, onLine: (line: string) => void): void {
  stream.setEncoding('utf8');
  let rest = '';
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') onLine(part);
  });
}

/**
 * Starts the relay in workerd on 127.0.0.1.
 *
 * @param options Settings, port, KV persistence.
 * @returns The origin, once it accepts requests, and `dispose`.
 * @example
 * const relay = await startRelayWorker({ settings: relaySettingsFrom(process.env), port: 8787 });
 */
export async function startRelayWorker(options: RelayWorkerOptions): Promise<RelayWorker> {
  const config = await wranglerConfig();
  const onLine = options.onLine ?? ((line: string) => console.log(line));
  const ratelimits = Object.fromEntries((config.ratelimits ?? []).map((r) => [r.name, { namespace_id: r.namespace_id, simple: r.simple }]));
  const mf = new Miniflare({
    modules: true,
    scriptPath: options.scriptPath ?? (await bundleRelay()),
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    bindings: options.settings,
    kvNamespaces: ['TOKEN_CACHE'],
    kvPersist: options.kvPersist ?? false,
    ratelimits,
    ...(options.upstreamLimiter ? { durableObjects: { UPSTREAM_LIMITER: 'UpstreamLimiter' } } : {}),
    host: '127.0.0.1',
    port: options.port ?? 0,
    ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
    // A fixed placeholder: otherwise Miniflare tries to download request.cf data from a Cloudflare host.
    cf: false,
    log: new QuietLog(),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      lines(stdout, onLine);
      lines(stderr, onLine);
    },
  });
  const url = await mf.ready;
  return { origin: url.origin, mf, dispose: () => mf.dispose() };
}
