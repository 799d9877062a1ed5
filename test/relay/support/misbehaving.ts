/**
 * A Partner Learning Service that misbehaves, on a loopback socket, for the relay: its token endpoint can fail, and
 * each course id has a way of going wrong (echoing what it received, hanging, streaming forever, cutting its body
 * short, nesting JSON deeply, dripping). It records the token requests it got and which requests were cancelled.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeAccessToken } from '../../support/fake-tokens.ts';
import { LEARNER_SECRET, OTHER_RELAY_KEY, RELAY_KEY } from './fixture.ts';

export const CLIENT_ID = 'misbehaving000000000000000';
export const CLIENT_SECRET = 'misbehaving-client-secret-0123456789abcdef';
export const API_KEY = 'misbehaving-api-key-0123456789abcdefghijkl';

/** Course ids and what the service does for each. */
export const COURSE = { echo: 1, hang: 2, endless: 3, truncated: 4, deep: 5, drip: 6, throttled: 7 } as const;

/** The misbehaving service. */
export interface Misbehaving {
  origin: string;
  settings: Record<string, string>;
  secrets: string[];
  /** `ok`: tokens are issued; `fail`: 400 `invalid_client` after 300 ms (as after a secret rotation). */
  tokenMode: 'ok' | 'fail';
  tokenRequests: number;
  /** Paths whose request the relay cancelled (the socket closed before the answer ended). */
  cancelled: string[];
  close(): Promise<void>;
}

/** @returns The service on a loopback port, with relay settings pointing at it. */
export async function startMisbehaving(): Promise<Misbehaving> {
  const open = new Set<ServerResponse>();
  const state: Misbehaving = {
    origin: '', settings: {}, secrets: [CLIENT_SECRET, API_KEY, RELAY_KEY, OTHER_RELAY_KEY, LEARNER_SECRET],
    tokenMode: 'ok', tokenRequests: 0, cancelled: [],
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    open.add(res);
    const path = req.url ?? '';
    res.on('close', () => {
      open.delete(res);
      if (!res.writableFinished) state.cancelled.push(path);
    });
    if (path.endsWith('/oauth2/token')) {
      state.tokenRequests += 1;
      if (state.tokenMode === 'fail') {
        setTimeout(() => res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}'), 300);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: fakeAccessToken({}, Date.now()), token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    const apiKey = String(req.headers['x-api-key'] ?? '');
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const course = Number(/\/courses\/(\d+)$/.exec(path)?.[1]);
    if (path.endsWith('/transcript/pdf')) {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="../../evil.exe"' })
        .end('%PDF-1.4\n%%EOF\n');
      return;
    }
    switch (course) {
      case COURSE.echo: {
        const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
        res.writeHead(200, { 'content-type': 'application/ld+json', 'x-request-id': bearer }).end(JSON.stringify({
          '@id': `/sandbox/v1/courses/${course}`, id: course, title: `echo ${apiKey}`,
          description: `bearer ${bearer} encoded ${encodeURIComponent(apiKey)} reversed ${[...apiKey].reverse().join('')} basic ${basic}`,
          headers: req.headers,
        }));
        return;
      }
      case COURSE.hang:
        return;
      case COURSE.endless: {
        res.writeHead(200, { 'content-type': 'application/ld+json' });
        res.write('{"id":3,"title":"');
        const chunk = 'x'.repeat(64 * 1024);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      case COURSE.truncated:
        res.writeHead(200, { 'content-type': 'application/ld+json', 'content-length': '5000' });
        res.write('{"id":4,"title":"cut');
        setTimeout(() => res.destroy(), 20);
        return;
      case COURSE.deep:
        res.writeHead(200, { 'content-type': 'application/ld+json' }).end(`${'['.repeat(50_000)}${']'.repeat(50_000)}`);
        return;
      case COURSE.drip: {
        res.writeHead(200, { 'content-type': 'application/ld+json' });
        res.write('{"id":6,"title":"');
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case COURSE.throttled:
        // API Gateway's throttle, with a Retry-After of 20 s: every call on the key pauses that long.
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '20' }).end('{"message":"Too Many Requests"}');
        return;
      default:
        res.writeHead(404, { 'content-type': 'application/ld+json' }).end('{"@type":"hydra:Error","hydra:description":"Not Found"}');
    }
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.settings = {
    PARTNER_LEARNING_TOKEN_URL: `${state.origin}/sandbox/oauth2/token`,
    PARTNER_LEARNING_BASE_URL: `${state.origin}/sandbox/v1`,
    PARTNER_LEARNING_CLIENT_ID: CLIENT_ID,
    PARTNER_LEARNING_CLIENT_SECRET: CLIENT_SECRET,
    PARTNER_LEARNING_API_KEY: API_KEY,
    RELAY_KEYS: `${RELAY_KEY}, ${OTHER_RELAY_KEY}`,
    LEARNER_TOKEN_SECRET: LEARNER_SECRET,
    ALLOWED_ORIGINS: '',
    RELAY_DEADLINE_MS: '1500',
    RELAY_LOG_LEVEL: 'debug',
  };
  return state;
}
