/**
 * The client against a service that misbehaves, over a real socket: one that echoes what it received (credentials
 * included) in error texts and in `x-request-id`, hangs, drips, streams forever, cuts its body short, nests JSON a
 * hundred thousand levels deep, or answers a success with no record. Every case ends in a typed error within the
 * call's time limits, with no credential anywhere in it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isPartnerLearningError, MemoryTokenStore, type PartnerLearningError } from '../../../core/index.ts';
import { basicCredential } from '../../../core/redact.ts';
import { fakeAccessToken } from '../../support/fake-tokens.ts';

type Mode =
  | 'echo' | 'hang' | 'drip' | 'drip-declared' | 'drip-error' | 'endless' | 'gzip-bomb' | 'truncated' | 'deep' | 'null' | 'empty' | 'array'
  | 'token-echo';

/** 16 MiB of JSON that gzip packs into a few kilobytes: its Content-Length says nothing of what it decodes to. */
const GZIP_BOMB = gzipSync(`{"title":"${'x'.repeat(16 * 1024 * 1024)}"}`);

const CLIENT_ID = 'c1ient1d0000000000000000ab';
const SECRET = 'client-secret-that-must-never-show-0123456789';
let mode: Mode = 'echo';
let apiRequests = 0;
const open = new Set<ServerResponse>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  open.add(res);
  res.on('close', () => open.delete(res));
  const received = JSON.stringify({ headers: req.headers, url: req.url });
  if (req.url?.endsWith('/oauth2/token')) {
    if (mode === 'token-echo') {
      // A token endpoint whose error page prints the Basic credential it got, bare and URL-encoded.
      const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream auth failed for ${basic} (${encodeURIComponent(basic)})`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: fakeAccessToken({}, Date.now()), token_type: 'Bearer', expires_in: 3600 }));
    return;
  }
  apiRequests += 1;
  const apiKey = String(req.headers['x-api-key'] ?? '');
  const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  switch (mode) {
    case 'echo':
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': `req-${bearer}` }).end(JSON.stringify({
        message: `Internal error for ${received} key=${encodeURIComponent(apiKey)} rev=${[...apiKey].reverse().join('')}`,
      }));
      return;
    case 'hang':
      return; // headers never come
    case 'drip': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":1,"title":"');
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'drip-declared': {
      // As 'drip', with a Content-Length the body would fit in: the client reads such a body in one go.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"id":1,"title":"');
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'gzip-bomb':
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(GZIP_BOMB.byteLength) })
        .end(GZIP_BOMB);
      return;
    case 'drip-error': {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.write('{"message":"');
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'endless': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      const chunk = `${'{"id":1,"title":"endless"},'.repeat(400)}`;
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    case 'truncated':
      // Content-Length promises more than is sent; then the connection is closed.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"id":1,"title":"cut');
      setTimeout(() => res.destroy(), 20);
      return;
    case 'deep':
      res.writeHead(200, { 'content-type': 'application/json' }).end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      return;
    case 'null':
      res.writeHead(200, { 'content-type': 'application/json' }).end('null');
      return;
    case 'empty':
      res.writeHead(200, { 'content-type': 'application/json' }).end('');
      return;
    case 'array':
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      return;
    default:
      res.writeHead(404).end();
  }
}

let server: Server;
let origin: string;
let keyCounter = 0;

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A client with its own API key and token store (no other test's pause or token applies) and short retries. */
function client(extra: Record<string, unknown> = {}) {
  keyCounter += 1;
  const apiKey = `misbehaving-upstream-key-${String(keyCounter).padStart(4, '0')}-abcdefghij`;
  const c = createClient({
    tokenUrl: `${origin}/oauth2/token`, baseUrl: `${origin}/v1`, clientId: CLIENT_ID, clientSecret: SECRET, apiKey,
    retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 }, tokenStore: new MemoryTokenStore(), ...extra,
  });
  return { c, apiKey };
}

async function failure(promise: Promise<unknown>): Promise<PartnerLearningError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(isPartnerLearningError(error), `expected a PartnerLearningError, got ${String(error)}`).toBe(true);
  return error as PartnerLearningError;
}

/** Every way an error can be shown: none may hold a credential, in any spelling. */
function expectNoSecret(error: PartnerLearningError, secrets: string[]): void {
  const shown = [error.message, error.hint ?? '', error.requestId ?? '', JSON.stringify(error), inspect(error, { depth: 5 })].join('\n');
  for (const secret of secrets) {
    for (const form of [secret, encodeURIComponent(secret), [...secret].reverse().join('')]) expect(shown).not.toContain(form);
  }
  expect(shown).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/);
}

describe('a service that misbehaves (real socket)', () => {
  it('echoes the API key (plain, URL-encoded, reversed) and the bearer token: none reaches the error', async () => {
    mode = 'echo';
    const { c, apiKey } = client();
    const error = await failure(c.courses.get(1, { retry: false }));
    expect(error.code).toBe('server_error');
    expect(error.requestId).toMatch(/^req-/);
    expectNoSecret(error, [apiKey, SECRET]);
  });

  it('a token endpoint that prints the Basic credential: neither it nor the secret reaches the error', async () => {
    mode = 'token-echo';
    const { c, apiKey } = client();
    const error = await failure(c.courses.get(1, { retry: false }));
    expect(error.origin).toBe('token-endpoint');
    expectNoSecret(error, [apiKey, SECRET, basicCredential(CLIENT_ID, SECRET)]);
  });

  it('hangs: each attempt ends at timeoutMs, the call at deadlineMs with DeadlineError', async () => {
    mode = 'hang';
    const { c } = client({ timeoutMs: 150 });
    const started = Date.now();
    expect((await failure(c.courses.get(1, { retry: false }))).code).toBe('timeout');
    const deadline = await failure(c.courses.get(1, { deadlineMs: 250, retry: { maxAttempts: 10 } }));
    expect(deadline.code).toBe('deadline_exceeded');
    expect(deadline.attempts).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('drips a byte at a time: timeoutMs covers the JSON body too', async () => {
    mode = 'drip';
    const { c } = client({ timeoutMs: 300 });
    expect((await failure(c.courses.get(1, { retry: false }))).code).toBe('timeout');
    expect((await failure(c.courses.get(1, { deadlineMs: 400 }))).code).toBe('deadline_exceeded');
  });

  it('drips a body that declares its length: timeoutMs still covers it', async () => {
    mode = 'drip-declared';
    const { c } = client({ timeoutMs: 300 });
    const started = Date.now();
    expect((await failure(c.courses.get(1, { retry: false }))).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a gzip body of a few kilobytes that decodes past maxResponseBytes: stopped at the cap, not trusted by its length', async () => {
    mode = 'gzip-bomb';
    const { c } = client({ maxResponseBytes: 256 * 1024 });
    expect(GZIP_BOMB.byteLength).toBeLessThan(256 * 1024);
    const error = await failure(c.courses.get(1));
    expect(error.code).toBe('invalid_response');
    expect(error.message).toMatch(/larger than maxResponseBytes \(262144 bytes\)/);
  });

  it('a 500 whose body drips: the status is enough, the body read ends with the attempt', async () => {
    mode = 'drip-error';
    const { c } = client({ timeoutMs: 300 });
    const started = Date.now();
    const error = await failure(c.courses.get(1, { retry: false }));
    expect(error.code).toBe('server_error');
    expect(error.status).toBe(500);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('streams forever: stopped at maxResponseBytes with InvalidResponseError, not buffered', async () => {
    mode = 'endless';
    const { c } = client({ maxResponseBytes: 256 * 1024 });
    const before = process.memoryUsage().rss;
    const error = await failure(c.courses.get(1));
    expect(error.code).toBe('invalid_response');
    expect(error.message).toMatch(/larger than maxResponseBytes \(262144 bytes\)/);
    expect(error.attempts).toBe(1); // not retried: the same address answers the same way
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('cuts the body short (Content-Length lies): an InvalidResponseError, retried like a network failure', async () => {
    mode = 'truncated';
    const { c } = client();
    apiRequests = 0;
    const error = await failure(c.courses.get(1));
    expect(error.code).toBe('invalid_response');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/broke while the service's answer was being read/);
    expect(error.attempts).toBe(2);
    expect(apiRequests).toBe(2);
  });

  it('nests JSON 100,000 levels deep: InvalidResponseError, no RangeError', async () => {
    mode = 'deep';
    const { c } = client();
    const error = await failure(c.courses.get(1));
    expect(error.code).toBe('invalid_response');
    expect(error.message).toMatch(/nested deeper than 64 levels/);
  });

  it.each([['null', /with null/], ['empty', /with an empty body/], ['array', /with an array/]] as const)(
    'answers 200 with %s where a record is expected: InvalidResponseError',
    async (m, expected) => {
      mode = m;
      const { c } = client();
      const error = await failure(c.courses.get(1));
      expect(error.code).toBe('invalid_response');
      expect(error.message).toMatch(expected);
    },
  );
});
