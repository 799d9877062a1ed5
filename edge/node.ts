/**
 * Node entry: `node --import tsx edge/node.ts` serves the relay with the token cached in memory. Settings come from
 * the environment; `PORT` (default 8787, 0 picks a free one) and `HOST` (default 127.0.0.1) say where to listen.
 */
import { serve } from '@hono/node-server';
import { createRelay } from './app.ts';
import { consoleLogger } from './console-logger.ts';

const app = createRelay({ settings: process.env, logger: consoleLogger(process.env['RELAY_LOG_LEVEL']) });
const hostname = process.env['HOST'] ?? '127.0.0.1';
const server = serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 8787), hostname }, (info) => {
  console.log(`relay listening on http://${hostname}:${info.port}`);
});
const stop = (): void => {
  server.close(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
