/**
 * Deno entry: `deno serve --allow-net --allow-env --allow-read --allow-write edge/deno.ts` (`deno.json`: Deno KV, npm
 * packages from node_modules) serves the relay with
 * the token cached in Deno KV (`DENO_KV_PATH`, default Deno's own location). Settings come from the environment.
 */
import { createRelay } from './app.ts';
import { consoleLogger } from './console-logger.ts';
import { denoKvTokenStore, type DenoKvLike } from './token-store.ts';

// Typed locally so the repository's Node-typed tsc run needs no Deno type package.
const deno = (globalThis as unknown as {
  Deno: { openKv(path?: string): Promise<DenoKvLike>; env: { toObject(): Record<string, string>; get(name: string): string | undefined } };
}).Deno;

const kv = await deno.openKv(deno.env.get('DENO_KV_PATH') || undefined);
const app = createRelay({
  settings: deno.env.toObject(),
  tokenStore: denoKvTokenStore(kv),
  logger: consoleLogger(deno.env.get('RELAY_LOG_LEVEL')),
});

export default { fetch: app.fetch };
