import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { ORIGIN, testBed } from '../test/support/emulator-testbed.ts';

const form = 'application/x-www-form-urlencoded';

describe('token endpoint', () => {
  const setup = () => {
    const t = testBed();
    const [rw, ro] = t.env.clients;
    if (!rw || !ro) throw new Error('clients missing');
    const basic = (id: string, secret: string) => `Basic ${btoa(`${id}:${secret}`)}`;
    const post = (authorization: string | null, body: string, contentType = form) =>
      t.send(t.env.tokenUrl, { method: 'POST', headers: { ...(authorization ? { authorization } : {}), 'content-type': contentType }, body });
    return { t, rw, ro, basic, post };
  };

  it('issues an RS256 Cognito-style access token with the client scopes by default', async () => {
    const { t, rw, basic, post } = setup();
    const res = await post(basic(rw.clientId, rw.clientSecret), 'grant_type=client_credentials');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(body.expires_in).toBe(3600);
    expect(body.token_type).toBe('Bearer');
    const claims = decodeJwt(body.access_token);
    expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(claims).toMatchObject({ sub: rw.clientId, client_id: rw.clientId, token_use: 'access', scope: 'partner-api/read partner-api/write', iss: `${ORIGIN}/sandbox/idp` });
    expect(claims.exp).toBe((claims.iat ?? 0) + 3600);
    expect(claims.iat).toBe(Math.floor(t.clock.ms / 1000));
    expect(claims.aud).toBeUndefined();
    expect(typeof claims.jti).toBe('string');
    const jwks = (await (await t.send('/sandbox/idp/.well-known/jwks.json')).json()) as { keys: { kid: string }[] };
    expect(jwks.keys[0]?.kid).toBe(decodeProtectedHeader(body.access_token).kid);
  });

  it('answers invalid_client for a wrong secret, a missing header, the API key as secret, or another env', async () => {
    const { t, rw, basic, post } = setup();
    const prodRw = t.emulator.partners(ORIGIN)[0]?.environments.production.clients[0];
    for (const auth of [basic(rw.clientId, 'wrong'), null, basic(rw.clientId, t.env.apiKey), basic(prodRw?.clientId ?? '', prodRw?.clientSecret ?? ''), 'Basic !!!']) {
      const res = await post(auth, 'grant_type=client_credentials');
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: 'invalid_client' });
      expect(text).not.toContain(rw.clientSecret);
    }
  });

  it('answers invalid_grant / unsupported_grant_type for a body that is not exactly the grant', async () => {
    const { rw, basic, post } = setup();
    const auth = basic(rw.clientId, rw.clientSecret);
    const errorOf = async (body: string, type = form) => ((await (await post(auth, body, type)).json()) as { error: string }).error;
    expect(await errorOf('{"grant_type":"client_credentials"}', 'application/json')).toBe('invalid_grant');
    expect(await errorOf('')).toBe('invalid_grant');
    expect(await errorOf(`grant_type=client_credentials&client_secret=${rw.clientSecret}`)).toBe('invalid_grant');
    expect(await errorOf('grant_type=password')).toBe('unsupported_grant_type');
  });

  it('answers invalid_scope when a read-only client asks for write', async () => {
    const { ro, basic, post } = setup();
    const res = await post(basic(ro.clientId, ro.clientSecret), 'grant_type=client_credentials&scope=partner-api%2Fread+partner-api%2Fwrite');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_scope' });
    const ok = await post(basic(ro.clientId, ro.clientSecret), 'grant_type=client_credentials&scope=partner-api%2Fread');
    expect(decodeJwt(((await ok.json()) as { access_token: string }).access_token).scope).toBe('partner-api/read');
  });
});
