/**
 * Deno entry: `deno serve --allow-net --allow-env --allow-read --allow-write edge/deno.ts` (`deno.json`: Deno KV, npm
 * packages from node_modules) serves the relay with the token cached in Deno KV (`DENO_KV_PATH`, default Deno's own
 * location). Settings come from the environment. `deno serve` builds the request URL from the caller's Host: set
 * `RELAY_PUBLIC_ORIGIN` so links point at the relay. On SIGTERM/SIGINT the relay drains: calls under way finish (at
 * most the deadline and a second), new ones are answered 503 with `Retry-After`, then the process exits 0.
 */
import { createRelay } from './app.ts';
import { DEFAULT_DEADLINE_MS } from './config.ts';
import { consoleLogger, logLevelOf } from './console-logger.ts';
import { drainable } from './drain.ts';
import { denoKvTokenStore, type DenoKvLike } from './token-store.ts';

// Typed locally so the repository's Node-typed tsc run needs no Deno type package.
const deno = (globalThis as unknown as {
  Deno: {
    openKv(path?: string): Promise<DenoKvLike>;
    env: { toObject(): Record<string, string>; get(name: string): string | undefined };
    addSignalListener(signal: 'SIGTERM' | 'SIGINT', handler: () => void): void;
    exit(code: number): never;
  };
}).Deno;

const kv = await deno.openKv(deno.env.get('DENO_KV_PATH') || undefined);
const logLevel = logLevelOf(deno.env.get('RELAY_LOG_LEVEL'));
const app = createRelay({
  settings: deno.env.toObject(),
  tokenStore: denoKvTokenStore(kv),
  logger: consoleLogger(logLevel),
  logLevel,
});
const relay = drainable(app.fetch);
const drainMs = (Number(deno.env.get('RELAY_DEADLINE_MS')) || DEFAULT_DEADLINE_MS) + 1000;
// The last answer is handed to Deno when drain resolves, not yet written: give the socket a moment before exiting.
const exitSoon = (): void => void setTimeout(() => deno.exit(0), 250);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  deno.addSignalListener(signal, () => void relay.drain(drainMs).then(exitSoon));
}

export default { fetch: relay.fetch };
