/**
 * A third-party OpenID client against the emulator's identity provider, over a real socket: `openid-client`'s
 * `discovery()` reads `{iss}/.well-known/openid-configuration`, then `clientCredentialsGrant()` gets a token that
 * the API accepts. Only test-side settings: `allowInsecureRequests` (the emulator speaks http on loopback; the
 * library refuses http otherwise) and `ClientSecretBasic` (the method the discovery document names; openid-client
 * defaults to `client_secret_post`, which the emulator refuses as the spec does).
 */
import * as oidc from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, envOf, readOnlyClient, readResult, readWriteClient, resetHarness, startHarness, READ, WRITE } from '../../support/emulator-http.ts';
import type { EnvName, Harness } from '../../support/emulator-http.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await resetHarness(h); });

const discover = (issuer: string, clientId: string, secret: string) =>
  oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

describe('OpenID discovery (openid-client)', () => {
  for (const envName of ['sandbox', 'production'] as const satisfies readonly EnvName[]) {
    it(`${envName}: discovery() reads the issuer's metadata, clientCredentialsGrant() gets a token the API takes`, async () => {
      const env = envOf(h, 0, envName);
      const issuer = `${h.origin}/${envName}/idp`;
      const rw = readWriteClient(env);
      const config = await discover(issuer, rw.clientId, rw.clientSecret);
      const meta = config.serverMetadata();
      expect(meta.issuer).toBe(issuer);
      expect(meta.token_endpoint).toBe(env.tokenUrl);
      expect(meta.jwks_uri).toBe(`${issuer}/.well-known/jwks.json`);
      expect(meta.grant_types_supported).toEqual(['client_credentials']);
      expect(meta.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic']);
      expect(meta.scopes_supported).toEqual([READ, WRITE]);
      expect(meta.response_types_supported).toEqual(['token']);

      const tokens = await oidc.clientCredentialsGrant(config, { scope: `${READ} ${WRITE}` });
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.expiresIn()).toBe(3600);
      expect(tokens.scope).toBeUndefined();
      const orgs = await call({ origin: h.origin, env, apiKey: env.apiKey, token: tokens.access_token }, 'GET', '/organizations');
      expect(orgs.status).toBe(200);

      // The JWKS the metadata names verifies the token's signature key id.
      const jwks = (await readResult(await fetch(meta.jwks_uri as string))).body as { keys: { kid: string }[] };
      const header = JSON.parse(Buffer.from(tokens.access_token.split('.')[0] ?? '', 'base64url').toString()) as { kid: string };
      expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    });
  }

  it('the read-only client gets a read token; asking it for write is refused as invalid_scope', async () => {
    const env = envOf(h, 1, 'sandbox');
    const ro = readOnlyClient(env);
    const config = await discover(`${h.origin}/sandbox/idp`, ro.clientId, ro.clientSecret);
    const read = await oidc.clientCredentialsGrant(config, { scope: READ });
    expect((await call({ origin: h.origin, env, apiKey: env.apiKey, token: read.access_token }, 'GET', '/courses')).status).toBe(200);
    await expect(oidc.clientCredentialsGrant(config, { scope: WRITE })).rejects.toMatchObject({ error: 'invalid_scope' });
  });

  it('an issuer of another environment or origin does not match the metadata', async () => {
    const env = envOf(h, 0, 'sandbox');
    const rw = readWriteClient(env);
    // The metadata is served per origin, as tokens are: the issuer read through localhost names localhost.
    const viaLocalhost = await discover(`${h.origin.replace('127.0.0.1', 'localhost')}/sandbox/idp`, rw.clientId, rw.clientSecret);
    expect(viaLocalhost.serverMetadata().issuer).toContain('//localhost:');
    await expect(discover(`${h.origin}/staging/idp`, rw.clientId, rw.clientSecret)).rejects.toThrow();
  });
});
