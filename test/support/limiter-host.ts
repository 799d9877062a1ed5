/**
 * A limiter host (`createLimiterHost`) served on a free loopback port with @hono/node-server, as a partner would run
 * one beside their processes: the socket test of shared limiters and bench row 7t use it.
 */
import { once } from 'node:events';
import { serve } from '@hono/node-server';
import { createLimiterHost, type LimiterHostOptions } from '../../core/index.ts';

/** A served host: its URL (under `/limits/`) and how to stop it. */
export interface ServedLimiterHost {
  url: string;
  close(): Promise<void>;
}

/**
 * @param options The host's options (token, lease).
 * @returns The host, listening.
 */
export async function serveLimiterHost(options: LimiterHostOptions = {}): Promise<ServedLimiterHost> {
  const server = serve({ fetch: createLimiterHost(options).fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the limiter host has no port');
  return {
    url: `http://127.0.0.1:${address.port}/limits/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
