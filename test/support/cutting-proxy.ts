/**
 * A reverse proxy with a read timeout, as nginx's `proxy_read_timeout` or a load balancer's idle timeout: it forwards
 * each request to the target's origin and, when no answer has come within `readTimeoutMs`, answers 504 and drops the
 * request upstream. The socket test of the limiter host's hold (`holdMs`) puts it between processes and the host.
 */
import { once } from 'node:events';
import http from 'node:http';

/** A served proxy: its URL (the target's path on the proxy's origin), how many requests it cut, and how to stop it. */
export interface CuttingProxy {
  url: string;
  readonly cuts: number;
  close(): Promise<void>;
}

/**
 * @param target The URL to forward to (its path is kept: requests go to the same path on the target's origin).
 * @param readTimeoutMs How long an answer may take before the proxy cuts the request.
 * @returns The proxy, listening on a free loopback port.
 */
export async function serveCuttingProxy(target: string, readTimeoutMs: number): Promise<CuttingProxy> {
  const origin = new URL(target);
  let cuts = 0;
  const server = http.createServer((request, response) => {
    const upstream = http.request({ host: origin.hostname, port: origin.port, path: request.url, method: request.method, headers: request.headers }, (answer) => {
      clearTimeout(timer);
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    const timer = setTimeout(() => {
      cuts += 1;
      upstream.destroy();
      response.writeHead(504, { 'content-type': 'text/plain' }).end('upstream timed out');
    }, readTimeoutMs);
    upstream.on('error', () => {
      clearTimeout(timer);
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end('upstream failed');
    });
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}${origin.pathname}`,
    get cuts() {
      return cuts;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
