/** A free TCP port on 127.0.0.1 (listen on 0, read the port, close), for servers a test or script starts. */
import { createServer } from 'node:net';

/** @returns A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return await new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}
