import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { HttpBindings } from '@hono/node-server';
import { createEmulator } from './index.ts';
import type { Emulator, EmulatorOptions } from './index.ts';
import { DROP_HEADER } from './faults.ts';

/** Options of {@link startEmulatorServer}. */
export interface EmulatorServerOptions extends EmulatorOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
}

/** A listening emulator. */
export interface EmulatorServer {
  /** e.g. `http://127.0.0.1:4010` */
  origin: string;
  emulator: Emulator;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Serves the emulator over HTTP (Node only). The control interface answers loopback callers only (403 otherwise).
 * A fault with status 0 destroys the socket without a response.
 * @param options emulator options plus port and host.
 * @returns the origin, the emulator and a close function, once it accepts requests.
 * @example
 * const server = await startEmulatorServer({ port: 0 });
 * await fetch(`${server.origin}/_emulator/partners`);
 * await server.close();
 */
export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const { port = 0, host = '127.0.0.1', ...emulatorOptions } = options;
  const emulator = createEmulator(emulatorOptions);
  const handle = async (request: Request, env: HttpBindings): Promise<Response> => {
    // The app decides on the control interface (emulator/control.ts, on the router's decoded path): it is told the
    // peer's address, never a header the caller could set. A socket with no address reads as not loopback.
    const response = await emulator.app.fetch(request, { callerAddress: env.incoming.socket.remoteAddress ?? '' });
    if (response.headers.has(DROP_HEADER)) {
      env.incoming.socket.destroy();
      // Never written: the socket is gone; node-server only needs a value.
      return new Response(null, { status: 502 });
    }
    return response;
  };
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: (request, env) => handle(request, env as HttpBindings), port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    origin: `http://${shownHost}:${address.port}`,
    emulator,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
