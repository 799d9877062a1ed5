/**
 * Token endpoint over real HTTP (spec: Token request, Token endpoint errors, Access token content; emulator
 * contract: environments table, token endpoint error statuses).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { basic, call, envOf, readOnlyClient, readResult, readWriteClient, requestToken, resetHarness, startHarness, READ, WRITE } from '../../support/emulator-http.ts';
import type { Harness, HttpResult } from '../../support/emulator-http.ts';
import { OAuthError, TokenResponse } from '../../support/emulator-schemas.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await resetHarness(h); });

async function postToken(url: string, headers: Record<string, string>, body: string): Promise<HttpResult> {
  return readResult(await fetch(url, { method: 'POST', headers, body }));
}

function oauthError(res: HttpResult): string {
  return OAuthError.parse(res.body).error;
}

describe('token endpoint', () => {
  it('Basic auth plus the exact form body gives 200 with access_token and expires_in 3600', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await requestToken(env.tokenUrl, readWriteClient(env));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    TokenResponse.parse(res.body);
  });

  it('accepts the form content type with a charset parameter (what fetch and ky send for URLSearchParams)', async () => {
    const env = envOf(h, 0, 'sandbox');
    const client = readWriteClient(env);
    const res = await postToken(
      env.tokenUrl,
      { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      `grant_type=client_credentials&scope=${encodeURIComponent(READ)}`,
    );
    expect(res.status).toBe(200);
    TokenResponse.parse(res.body);
  });

  it('issues an RS256 JWT with the spec claims and no aud', async () => {
    for (const envName of ['sandbox', 'production'] as const) {
      const env = envOf(h, 0, envName);
      const client = readWriteClient(env);
      const token = TokenResponse.parse((await requestToken(env.tokenUrl, client)).body).access_token;
      expect(decodeProtectedHeader(token).alg).toBe('RS256');
      const claims = decodeJwt(token);
      expect(claims.sub).toBe(client.clientId);
      expect(claims.client_id).toBe(client.clientId);
      expect(claims.token_use).toBe('access');
      expect(String(claims.scope).split(' ').sort()).toEqual([READ, WRITE]);
      expect(claims.iss).toBe(`${h.origin}/${envName}/idp`);
      expect(typeof claims.iat).toBe('number');
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
      expect(claims.aud).toBeUndefined();
    }
  });

  it('the signature verifies against the JWKS at {iss}/.well-known/jwks.json', async () => {
    const env = envOf(h, 0, 'sandbox');
    const token = TokenResponse.parse((await requestToken(env.tokenUrl, readWriteClient(env))).body).access_token;
    const iss = `${h.origin}/sandbox/idp`;
    const jwks = createRemoteJWKSet(new URL(`${iss}/.well-known/jwks.json`));
    const iat = decodeJwt(token).iat ?? 0;
    // The emulator clock may differ from real time: verify at the token's own issue time.
    const { payload } = await jwtVerify(token, jwks, { issuer: iss, algorithms: ['RS256'], currentDate: new Date(iat * 1000 + 1000) });
    expect(payload.token_use).toBe('access');
  });

  it('each environment signs with its own key: a production token does not verify against the sandbox JWKS', async () => {
    const env = envOf(h, 0, 'production');
    const token = TokenResponse.parse((await requestToken(env.tokenUrl, readWriteClient(env))).body).access_token;
    const iat = decodeJwt(token).iat ?? 0;
    const sandboxJwks = createRemoteJWKSet(new URL(`${h.origin}/sandbox/idp/.well-known/jwks.json`));
    await expect(jwtVerify(token, sandboxJwks, { currentDate: new Date(iat * 1000 + 1000) })).rejects.toThrow();
  });

  it('no scope parameter gives a token with the client\'s allowed scopes', async () => {
    const env = envOf(h, 0, 'sandbox');
    for (const client of [readWriteClient(env), readOnlyClient(env)]) {
      const res = await requestToken(env.tokenUrl, client, null);
      expect(res.status).toBe(200);
      const scope = String(decodeJwt(TokenResponse.parse(res.body).access_token).scope);
      expect(scope.split(' ').sort()).toEqual([...client.scopes].sort());
    }
  });

  it('a read-only client gets partner-api/read when it asks for it', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await requestToken(env.tokenUrl, readOnlyClient(env), READ);
    expect(res.status).toBe(200);
    expect(decodeJwt(TokenResponse.parse(res.body).access_token).scope).toBe(READ);
  });

  it('a read-only client asking for the write scope gets 400 invalid_scope', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await requestToken(env.tokenUrl, readOnlyClient(env), `${READ} ${WRITE}`);
    expect(res.status).toBe(400);
    expect(oauthError(res)).toBe('invalid_scope');
  });

  it('an unknown scope gets 400 invalid_scope', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await requestToken(env.tokenUrl, readWriteClient(env), 'partner-api/admin');
    expect(res.status).toBe(400);
    expect(oauthError(res)).toBe('invalid_scope');
  });

  it('a wrong secret gets invalid_client (400 or 401) without echoing the secret', async () => {
    const env = envOf(h, 0, 'sandbox');
    const client = readWriteClient(env);
    const wrong = { ...client, clientSecret: `${client.clientSecret}x` };
    const res = await requestToken(env.tokenUrl, wrong);
    expect([400, 401]).toContain(res.status);
    expect(oauthError(res)).toBe('invalid_client');
    expect(res.text).not.toContain(wrong.clientSecret);
  });

  it('an unknown client id gets invalid_client', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await requestToken(env.tokenUrl, { clientId: 'a'.repeat(26), clientSecret: 'nope', scopes: [] });
    expect([400, 401]).toContain(res.status);
    expect(oauthError(res)).toBe('invalid_client');
  });

  it('no Authorization header gets invalid_client', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await postToken(env.tokenUrl, { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    expect([400, 401]).toContain(res.status);
    expect(oauthError(res)).toBe('invalid_client');
  });

  it('another environment\'s client gets invalid_client', async () => {
    const sandbox = envOf(h, 0, 'sandbox');
    const production = envOf(h, 0, 'production');
    const res = await requestToken(production.tokenUrl, readWriteClient(sandbox));
    expect([400, 401]).toContain(res.status);
    expect(oauthError(res)).toBe('invalid_client');
  });

  it('a JSON body gets 400 invalid_grant or unsupported_grant_type', async () => {
    const env = envOf(h, 0, 'sandbox');
    const client = readWriteClient(env);
    const res = await postToken(
      env.tokenUrl,
      { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/json' },
      JSON.stringify({ grant_type: 'client_credentials', scope: READ }),
    );
    expect(res.status).toBe(400);
    expect(['invalid_grant', 'unsupported_grant_type']).toContain(oauthError(res));
  });

  it('a wrong grant_type gets 400 invalid_grant or unsupported_grant_type', async () => {
    const env = envOf(h, 0, 'sandbox');
    const client = readWriteClient(env);
    for (const body of ['grant_type=password', 'grant_type=authorization_code&code=x', `scope=${encodeURIComponent(READ)}`]) {
      const res = await postToken(env.tokenUrl, { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' }, body);
      expect(res.status, body).toBe(400);
      expect(['invalid_grant', 'unsupported_grant_type'], body).toContain(oauthError(res));
    }
  });

  it('the issued token works against the API of its own environment', async () => {
    for (const envName of ['sandbox', 'production'] as const) {
      const env = envOf(h, 1, envName);
      const token = TokenResponse.parse((await requestToken(env.tokenUrl, readWriteClient(env))).body).access_token;
      const res = await call({ origin: h.origin, env, apiKey: env.apiKey, token }, 'GET', '/organizations');
      expect(res.status, envName).toBe(200);
    }
  });
});
