/**
 * Node entry: `node --import tsx edge/node.ts` serves the relay with the token cached in memory. Settings come from
 * the environment; `PORT` (default 8787, 0 picks a free one) and `HOST` (default 127.0.0.1) say where to listen.
 * Links in bodies point at the listening origin unless `RELAY_PUBLIC_ORIGIN` says otherwise (never at the caller's
 * `Host`). SIGINT/SIGTERM stop accepting and let calls under way finish (at most the deadline and a second more).
 */
import { serve } from '@hono/node-server';
import { createRelay } from './app.ts';
import { DEFAULT_DEADLINE_MS } from './config.ts';
import { consoleLogger, logLevelOf } from './console-logger.ts';

const hostname = process.env['HOST'] ?? '127.0.0.1';
let listening: string | undefined;
const logLevel = logLevelOf(process.env['RELAY_LOG_LEVEL']);
const app = createRelay({ settings: process.env, logger: consoleLogger(logLevel), logLevel, publicOrigin: () => listening });
const server = serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 8787), hostname }, (info) => {
  listening = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`;
  console.log(`relay listening on ${listening}`);
});
const stop = (): void => {
  server.close(() => process.exit(0));
  const drainMs = (Number(process.env['RELAY_DEADLINE_MS']) || DEFAULT_DEADLINE_MS) + 1000;
  setTimeout(() => process.exit(0), drainMs).unref();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
