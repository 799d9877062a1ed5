/**
 * A limiter host (`createLimiterHost`) served on a free loopback port with @hono/node-server, as a partner would run
 * one beside their processes: the socket test of shared limiters and bench row 7t use it.
 */
import { once } from 'node:events';
import { serve } from '@hono/node-server';
import { createLimiterHost, type LimiterHostOptions } from '../../core/index.ts';

/** One request the host received (when asked to record them). */
export interface HostRequest {
  route: string;
  authorization: string | null;
  body: string;
}

/** A served host: its URL (under `/limits/`), what it received if recording, and how to stop it. */
export interface ServedLimiterHost {
  url: string;
  requests: HostRequest[];
  close(): Promise<void>;
}

/**
 * @param options The host's options (token, lease).
 * @param record Whether to keep every request it receives (tests; the bench leaves it off).
 * @returns The host, listening.
 */
export async function serveLimiterHost(options: LimiterHostOptions = {}, record = false): Promise<ServedLimiterHost> {
  const host = createLimiterHost(options);
  const requests: HostRequest[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    if (record) {
      const route = new URL(request.url).pathname.split('/').pop() ?? '';
      requests.push({ route, authorization: request.headers.get('authorization'), body: await request.clone().text() });
    }
    return host.fetch(request);
  };
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the limiter host has no port');
  return {
    url: `http://127.0.0.1:${address.port}/limits/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
