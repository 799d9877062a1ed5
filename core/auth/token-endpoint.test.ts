import { describe, it, expect } from 'vitest';
import { basicAuthorization, requestToken, tokenRequestBody, parseTokenResponse } from './token-endpoint.ts';
import { createHttp } from '../http/send.ts';
import { ConfigurationError, TokenEndpointError } from '../errors/index.ts';
import { fakeAccessToken, jsonResponse } from '../../test/support/fake-tokens.ts';

const now = Date.UTC(2026, 10, 22, 12);
const tokenUrl = 'https://auth.example.com/oauth2/token';

describe('token request', () => {
  it('sends the exact form body and Basic header', async () => {
    const seen: { method: string; url: string; headers: Headers; body: string }[] = [];
    const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
      return jsonResponse(200, { access_token: fakeAccessToken({}, now), expires_in: 3600, token_type: 'Bearer' });
    };
    const token = await requestToken({
      tokenUrl, clientId: 'client-ü', clientSecret: 'secret:with:colons', scopes: ['partner-api/read', 'partner-api/write'],
      http: createHttp(fetchFn as typeof fetch), now: () => now, timeoutMs: 5000,
    });
    expect(seen).toHaveLength(1);
    const [sent] = seen;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe(tokenUrl);
    expect(sent?.body).toBe('grant_type=client_credentials&scope=partner-api%2Fread+partner-api%2Fwrite');
    expect(sent?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    // base64 over the UTF-8 bytes of "client-ü:secret:with:colons"
    const expected = btoa(String.fromCharCode(...new TextEncoder().encode('client-ü:secret:with:colons')));
    expect(sent?.headers.get('authorization')).toBe(`Basic ${expected}`);
    expect(token.scope).toBe('partner-api/read partner-api/write');
    expect(token.expiresAt).toBe(now + 3_600_000);
  });

  it('encodes Basic credentials as UTF-8 base64', () => {
    expect(basicAuthorization('id', 'pw')).toBe('Basic aWQ6cHc=');
    expect(basicAuthorization('é', 'x')).toBe(`Basic ${btoa('\u00c3\u00a9:x')}`);
  });

  it('form-encodes one scope', () => {
    expect(tokenRequestBody(['partner-api/read'])).toBe('grant_type=client_credentials&scope=partner-api%2Fread');
  });

  it('maps token endpoint errors through the factory', async () => {
    const fetchFn = async () => jsonResponse(400, { error: 'invalid_scope' });
    const attempt = requestToken({
      tokenUrl, clientId: 'id', clientSecret: 'secret-value-123', scopes: ['partner-api/write'],
      http: createHttp(fetchFn as typeof fetch), now: () => now, timeoutMs: 5000,
    });
    await expect(attempt).rejects.toBeInstanceOf(TokenEndpointError);
    await expect(attempt).rejects.toMatchObject({ hint: expect.stringContaining('This client is not allowed scope partner-api/write') as unknown });
  });
});

describe('parseTokenResponse', () => {
  it('rejects a token without scope claim as a configuration problem', () => {
    const body = { access_token: fakeAccessToken({ scope: undefined }, now), expires_in: 3600 };
    expect(() => parseTokenResponse(body, now, tokenUrl)).toThrow(ConfigurationError);
    expect(() => parseTokenResponse(body, now, tokenUrl)).toThrow("the operator has not configured this client's allowed scopes");
  });

  it('takes expiry from exp, and from expires_in when the local clock is skewed', () => {
    const exp = Math.floor(now / 1000) + 1800;
    expect(parseTokenResponse({ access_token: fakeAccessToken({ exp }, now), expires_in: 1800 }, now, tokenUrl).expiresAt).toBe(exp * 1000);
    const skewedNow = now + 2 * 3_600_000; // local clock two hours ahead
    expect(parseTokenResponse({ access_token: fakeAccessToken({ exp }, now), expires_in: 1800 }, skewedNow, tokenUrl).expiresAt)
      .toBe(skewedNow + 1_800_000);
  });

  it('falls back to expires_in without exp', () => {
    const token = parseTokenResponse({ access_token: fakeAccessToken({ exp: undefined }, now), expires_in: 3600 }, now, tokenUrl);
    expect(token.expiresAt).toBe(now + 3_600_000);
  });

  it('rejects a missing or non-JWT access token', () => {
    expect(() => parseTokenResponse({ expires_in: 3600 }, now, tokenUrl)).toThrow(ConfigurationError);
    expect(() => parseTokenResponse({ access_token: 'opaque', expires_in: 3600 }, now, tokenUrl)).toThrow('not a JWT');
  });
});
