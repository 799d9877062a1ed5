/**
 * Serves the demo partner site over HTTP. As a script it reads RELAY_URL and RELAY_KEY from the environment
 * (`RELAY_URL=http://127.0.0.1:4011 RELAY_KEY=... node --import tsx examples/partner-site/server.ts --port 4012`);
 * `npm start` runs it for you, wired to a local relay.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createPartnerSite } from './site.ts';
import type { PartnerSiteOptions } from './site.ts';
import type { RelayAccess } from './relay-client.ts';

/** A listening partner site. */
export interface PartnerSiteServer {
  /** e.g. `http://127.0.0.1:4012`. */
  origin: string;
  setRelay(relay: RelayAccess): void;
  close(): Promise<void>;
}

/**
 * @param options site options plus the port (0 picks a free one) and host (default 127.0.0.1).
 * @returns the listening site.
 * @throws the listen error (code `EADDRINUSE` when the port is taken).
 */
export async function startPartnerSite(options: PartnerSiteOptions & { port?: number; host?: string } = {}): Promise<PartnerSiteServer> {
  const { port = 0, host = '127.0.0.1', ...siteOptions } = options;
  const site = await createPartnerSite(siteOptions);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: site.app.fetch, port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${address.port}`,
    setRelay: site.setRelay,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const origin = process.env.RELAY_URL;
  const key = process.env.RELAY_KEY;
  if (!origin || !key) {
    process.stderr.write('partner site: set RELAY_URL (the relay origin) and RELAY_KEY (one of its RELAY_KEYS)\n');
    process.exit(1);
  }
  const i = process.argv.indexOf('--port');
  const site = await startPartnerSite({ relay: { origin, key }, port: i > 0 ? Number(process.argv[i + 1]) : 4012 });
  process.stdout.write(`Demo page: ${site.origin}/\n`);
  const stop = () => void site.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
