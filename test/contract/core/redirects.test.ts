/**
 * Redirects are never followed, over real sockets: `fetch` forwards `x-api-key` to whatever origin a redirect
 * names, so a service (or anything in front of it) answering 302 to another host must not receive the key there.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, MemoryTokenStore } from '../../../core/index.ts';
import { RedirectError } from '../../../core/errors/index.ts';
import { fakeAccessToken } from '../../support/fake-tokens.ts';

const apiKey = 'RedirectTestApiKey0123456789abcdefghij';
const clientSecret = 'redirect-test-client-secret-0123456789';
const servers: Server[] = [];

async function listen(handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The other origin: records every request it gets. */
async function thief(): Promise<{ origin: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const origin = await listen((req, res) => {
    seen.push(req.headers);
    res.end('{}');
  });
  return { origin, seen };
}

/** The configured origin: a working token endpoint unless told to redirect it too; every API path redirects. */
async function redirecting(target: string, redirectToken: boolean): Promise<string> {
  return listen((req, res) => {
    if (req.url === '/oauth2/token' && !redirectToken) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: fakeAccessToken({}, Date.now()), expires_in: 3600 }));
      return;
    }
    res.statusCode = 302;
    res.setHeader('location', `${target}/steal?token=stolen-value-123`);
    res.end();
  });
}

function client(origin: string) {
  return createClient({
    tokenUrl: `${origin}/oauth2/token`, baseUrl: `${origin}/sandbox/v1`, clientId: 'redirect-client-id-0000000a',
    clientSecret, apiKey, tokenStore: new MemoryTokenStore(), retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('redirects', () => {
  it('an API call answered 302 to another origin fails with RedirectError; the key never reaches that origin', async () => {
    const other = await thief();
    const origin = await redirecting(other.origin, false);
    const error = await client(origin).organizations.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    const redirect = error as RedirectError;
    expect(redirect.code).toBe('unexpected_redirect');
    expect(redirect.status).toBe(302);
    expect(redirect.message).toContain(other.origin);
    expect(redirect.message).toMatch(/not repeated/);
    expect(redirect.message).not.toContain('steal');
    expect(redirect.message).not.toContain('stolen-value-123');
    expect(redirect.hint).toMatch(/baseUrl/);
    expect(redirect.attempts).toBe(1);
    expect(other.seen).toHaveLength(0);
    expect(JSON.stringify(other.seen)).not.toContain(apiKey);
  });

  it('a token endpoint answering 302 fails with RedirectError; the Basic credentials never reach that origin', async () => {
    const other = await thief();
    const origin = await redirecting(other.origin, true);
    const error = await client(origin).courses.list().toArray({ max: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).origin).toBe('token-endpoint');
    expect((error as RedirectError).message).toContain(other.origin);
    expect((error as RedirectError).message).toMatch(/not repeated/);
    expect((error as RedirectError).hint).toMatch(/tokenUrl/);
    expect(other.seen).toHaveLength(0);
  });
});
