/**
 * Authentication against the emulator's token endpoint and gateway: caching, single-flight, proactive refresh at
 * exp-300 s, the one retry after a 401, persistent 401, token endpoint errors, scopes, the token store.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthenticationError, ConfigurationError, MissingScopeError, TokenEndpointError } from '../../../core/index.ts';
import { RecordingTokenStore, startInProcess } from '../../support/core-harness.ts';
import type { Credentials, Harness } from '../../support/core-harness.ts';
import { apiRequests, tokenRequests } from '../../support/core-control.ts';
import { flatten, leakedSecrets, registerLearner } from '../../support/core-fixtures.ts';

/** What the error says and advises (message and hint). */
const said = (error: unknown): string => `${(error as Error).message} ${(error as { hint?: string }).hint ?? ''}`;

/** A token fetched by hand, outside the client (e.g. from the other environment). */
async function rawToken(h: Harness, c: Credentials): Promise<string> {
  const response = await h.send(
    new Request(c.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${c.clientId}:${c.clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function secretsOf(c: Credentials): string[] {
  return [c.clientSecret, c.apiKey];
}

describe('authentication', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startInProcess();
  });

  it('requests one token for many calls', async () => {
    const client = h.client();
    const learner = await registerLearner(client);
    await client.users.get(learner.uuid);
    await client.categories.list().toArray({ max: 5 });
    await client.courses.list().toArray({ max: 5 });
    await client.modules.list().toArray({ max: 5 });
    await client.users.update(learner.uuid, { city: 'Oslo' });
    const log = await h.control.requests();
    expect(tokenRequests(log)).toHaveLength(1);
    expect(apiRequests(log).length).toBeGreaterThanOrEqual(6);
  });

  it('1000 concurrent cold calls share exactly one token request', async () => {
    const c = h.creds();
    await h.control.setUsagePlan(c.apiKey, { ratePerSecond: 100_000, burst: 100_000, dailyQuota: 10_000_000 });
    const client = h.client();
    const organizationId = (await h.client().organizations.list().toArray({ max: 1 }))[0]!.id;
    await h.control.clearRequests();
    const results = await Promise.all(Array.from({ length: 1000 }, () => client.organizations.get(organizationId)));
    expect(results.every((o) => o.id === organizationId)).toBe(true);
    const log = await h.control.requests();
    expect(tokenRequests(log)).toHaveLength(1);
    expect(apiRequests(log).filter((r) => r.status === 200)).toHaveLength(1000);
  });

  it('refreshes 300 s before exp: none at exp-301 s, a new token at exp-299 s', async () => {
    const store = new RecordingTokenStore();
    const client = h.client({ tokenStore: store });
    await client.categories.list().toArray({ max: 1 });
    const expiresAt = store.sets[0]!.token.expiresAt;
    expect(expiresAt - h.clock.now()).toBe(3600_000);

    h.clock.advance(expiresAt - 301_000 - h.clock.now());
    await client.categories.list().toArray({ max: 1 });
    expect(tokenRequests(await h.control.requests())).toHaveLength(1);

    h.clock.advance(2_000);
    await client.categories.list().toArray({ max: 1 });
    expect(tokenRequests(await h.control.requests())).toHaveLength(2);
    expect(store.sets).toHaveLength(2);
  });

  it('on a 401 (a cached token of the other environment) discards it, fetches anew and retries once', async () => {
    const foreign = await rawToken(h, h.creds({ env: 'production' }));
    const store = new RecordingTokenStore();
    store.prefill = { accessToken: foreign, expiresAt: h.clock.now() + 3600_000, scope: 'partner-api/read partner-api/write' };
    await h.control.clearRequests();
    const client = h.client({ tokenStore: store });
    const categories = await client.categories.list().toArray({ max: 1 });
    expect(categories).toHaveLength(1);
    const log = (await h.control.requests()).map((r) => [r.method, r.path.replace(/^.*\/(v1|oauth2)\//, '$1/'), r.status]);
    expect(log).toEqual([
      ['GET', 'v1/categories', 401],
      ['POST', 'oauth2/token', 200],
      ['GET', 'v1/categories', 200],
    ]);
    expect([...store.entries.values()].map((t) => t.accessToken)).not.toContain(foreign);
  });

  it('on a 401 (token expired on the service, not yet on the client clock) fetches anew and retries once', async () => {
    const client = h.client();
    await client.categories.list().toArray({ max: 1 });
    await h.control.advanceClock(3700);
    await client.categories.list().toArray({ max: 1 });
    const log = await h.control.requests();
    expect(tokenRequests(log)).toHaveLength(2);
    expect(apiRequests(log).map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('a persistent 401 (production token URL, sandbox base URL) is an AuthenticationError naming the cause', async () => {
    const production = h.creds({ env: 'production' });
    const sandbox = h.creds();
    const client = h.client({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, environment: 'sandbox' }, { env: 'production' });
    const error = await client.categories.list().toArray({ max: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'authentication_failed', status: 401, retryable: false });
    const message = said(error);
    expect(message).toMatch(/environment/i);
    expect(message).toMatch(/token/i);
    expect(leakedSecrets(flatten(error), [...secretsOf(production), sandbox.apiKey, 'Basic '])).toEqual([]);
    const log = await h.control.requests();
    expect(tokenRequests(log)).toHaveLength(2);
    expect(apiRequests(log).map((r) => r.status)).toEqual([401, 401]);
  });

  it('a wrong client secret is invalid_client, with a message that mentions the API key', async () => {
    const c = h.creds();
    const wrong = `${c.clientSecret.slice(0, -4)}zzzz`;
    const error = await h.client({ clientSecret: wrong }).categories.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({ code: 'token_endpoint_error', oauthError: 'invalid_client', retryable: false });
    expect(said(error)).toMatch(/API key/i);
    expect(leakedSecrets(flatten(error), [wrong, c.clientSecret, c.apiKey, 'Basic '])).toEqual([]);
    expect(apiRequests(await h.control.requests())).toHaveLength(0);
  });

  it('an API key put in place of the client secret is invalid_client, and the key is not echoed', async () => {
    const c = h.creds();
    // Another key than the configured one, so the request reaches the token endpoint.
    const otherKey = h.creds({ partner: 1 }).apiKey;
    const error = await h.client({ clientSecret: otherKey }).categories.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({ oauthError: 'invalid_client' });
    expect(said(error)).toMatch(/API key/i);
    expect(leakedSecrets(flatten(error), [otherKey, c.apiKey, c.clientSecret, 'Basic '])).toEqual([]);
  });

  it('the configured API key repeated as the client secret is refused with a message about the API key', async () => {
    const c = h.creds();
    // Refusing it in the factory (no request) or at the token endpoint (invalid_client) both tell the user.
    const error = await Promise.resolve()
      .then(() => h.client({ clientSecret: c.apiKey }).categories.get(1))
      .catch((e: unknown) => e);
    if (error instanceof TokenEndpointError) expect(error.oauthError).toBe('invalid_client');
    else expect(error).toBeInstanceOf(ConfigurationError);
    expect(said(error)).toMatch(/API key/i);
    expect(leakedSecrets(flatten(error), [c.apiKey, c.clientSecret, 'Basic '])).toEqual([]);
    expect(apiRequests(await h.control.requests())).toHaveLength(0);
  });

  it('a read-only client asking for the write scope gets invalid_scope', async () => {
    const error = await h.client({}, { client: 'ro' }).categories.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({ oauthError: 'invalid_scope', retryable: false });
    expect(said(error)).toMatch(/partner-api\/write/);
  });

  it('a read-only client with the read scope reads, and a write is a MissingScopeError', async () => {
    const reader = h.client({ scopes: ['partner-api/read'] }, { client: 'ro' });
    expect((await reader.categories.list().toArray({ max: 1 })).length).toBe(1);
    const organizationId = (await reader.organizations.list().toArray({ max: 1 }))[0]!.id;
    const error = await reader.users
      .register({ email: 'ro@example.com', firstName: 'R', lastName: 'O', organizationId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingScopeError);
    expect(error).toMatchObject({ code: 'missing_scope', status: 403, retryable: false });
    expect(apiRequests(await h.control.requests()).filter((r) => r.path.endsWith('/users/register'))).toHaveLength(1);
  });

  it('a custom token store receives get and set, under keys that hold no secret', async () => {
    const c = h.creds();
    const store = new RecordingTokenStore();
    const client = h.client({ tokenStore: store });
    await client.categories.list().toArray({ max: 1 });
    await client.courses.list().toArray({ max: 1 });
    expect(store.gets.length).toBeGreaterThanOrEqual(1);
    expect(store.sets).toHaveLength(1);
    const { key, token } = store.sets[0]!;
    expect(store.gets).toContain(key);
    expect(token.accessToken.split('.')).toHaveLength(3);
    expect(token.scope.split(' ').sort()).toEqual(['partner-api/read', 'partner-api/write']);
    const keys = [...store.gets, ...store.sets.map((s) => s.key)].join('\n');
    expect(leakedSecrets(keys, [c.clientSecret, c.apiKey, token.accessToken])).toEqual([]);
  });
});
