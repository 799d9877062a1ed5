/**
 * verifyCredentials against the emulator: each misconfiguration fails as the typed error of the part that is wrong,
 * where ping (API key only) would have passed.
 */
import { describe, it, expect } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { MemoryTokenStore } from '../auth/memory-token-store.ts';
import { createClient } from '../client.ts';
import type { ClientOptions } from '../types/options.ts';
import {
  ApiKeyError,
  AuthenticationError,
  MissingScopeError,
  TokenEndpointError,
} from '../errors/index.ts';
import { clientOnTransport } from '../client-on-transport.ts';
import { fakeTransport } from '../../test/support/fake-transport.ts';

const origin = 'http://emulator.test';
const emulator = createEmulator({ seed: 3 });
const { sandbox, production } = emulator.partners(origin)[0]!.environments;
const [readWrite, readOnly] = sandbox.clients;

function client(overrides: Partial<ClientOptions> = {}) {
  return createClient({
    tokenUrl: sandbox.tokenUrl,
    baseUrl: sandbox.baseUrl,
    clientId: readWrite!.clientId,
    clientSecret: readWrite!.clientSecret,
    apiKey: sandbox.apiKey,
    environment: 'sandbox',
    fetch: (input, init) => emulator.fetch(input, init),
    now: () => emulator.now(),
    tokenStore: new MemoryTokenStore(),
    retry: { maxAttempts: 1 },
    ...overrides,
  });
}

async function tokenRequests(): Promise<number> {
  const log = (await (await emulator.fetch(`${origin}/_emulator/requests`)).json()) as { path: string }[];
  return log.filter((entry) => entry.path.endsWith('/oauth2/token')).length;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('verifyCredentials', () => {
  it('resolves with the environment and the granted scopes, with one token request', async () => {
    const before = await tokenRequests();
    const good = client();
    expect(await good.verifyCredentials()).toEqual({
      environment: 'sandbox',
      scopes: ['partner-api/read', 'partner-api/write'],
    });
    await good.courses.page({ pageSize: 1 });
    expect((await tokenRequests()) - before).toBe(1);
  });

  it('a wrong client secret is a TokenEndpointError, though ping passes', async () => {
    const bad = client({ clientSecret: 'x'.repeat(52) });
    expect((await bad.ping()).status).toBe('healthy');
    const error = await failure(bad.verifyCredentials());
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect((error as TokenEndpointError).oauthError).toBe('invalid_client');
  });

  it('a read-only client asking for write is a TokenEndpointError invalid_scope', async () => {
    const bad = client({ clientId: readOnly!.clientId, clientSecret: readOnly!.clientSecret });
    const error = await failure(bad.verifyCredentials());
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect((error as TokenEndpointError).oauthError).toBe('invalid_scope');
    const readOnlyClient = client({
      clientId: readOnly!.clientId,
      clientSecret: readOnly!.clientSecret,
      scopes: ['partner-api/read'],
    });
    expect((await readOnlyClient.verifyCredentials()).scopes).toEqual(['partner-api/read']);
  });

  it('a wrong API key is an ApiKeyError', async () => {
    const error = await failure(client({ apiKey: production.apiKey }).verifyCredentials());
    expect(error).toBeInstanceOf(ApiKeyError);
  });

  it("a production token on the sandbox API (environments mixed up) is an AuthenticationError", async () => {
    const mixed = client({
      tokenUrl: production.tokenUrl,
      clientId: production.clients[0]!.clientId,
      clientSecret: production.clients[0]!.clientSecret,
    });
    const error = await failure(mixed.verifyCredentials());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
  });

  it('a token granting fewer scopes than asked is a MissingScopeError naming the scope', async () => {
    const transport = fakeTransport(() => ({ data: { 'hydra:member': [] } }));
    const partial = clientOnTransport(transport, 'sandbox', {
      token: async () => ({ accessToken: 't', expiresAt: Date.now() + 60_000, scope: 'partner-api/read' }),
      scopes: ['partner-api/read', 'partner-api/write'],
    });
    const error = await failure(partial.verifyCredentials());
    expect(error).toBeInstanceOf(MissingScopeError);
    expect((error as MissingScopeError).scope).toBe('partner-api/write');
    expect(transport.requests).toHaveLength(0);
  });

  it('a driver that does not expose its token proves the credentials by the read alone', async () => {
    const transport = fakeTransport(() => ({ data: { 'hydra:member': [] } }));
    expect(await clientOnTransport(transport, 'x').verifyCredentials()).toEqual({ environment: 'x', scopes: [] });
    expect(transport.requests).toEqual([
      { method: 'GET', path: '/organizations', query: { itemsPerPage: 1 }, signal: undefined },
    ]);
  });
});
