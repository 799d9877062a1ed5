import { describe, it, expect } from 'vitest';
import { createRedactor, redact } from './redact.ts';
import { basicAuthorization } from './auth/token-endpoint.ts';

const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJhYmMiLCJzY29wZSI6InBhcnRuZXItYXBpL3JlYWQifQ.c2lnbmF0dXJlLXZhbHVl';
const secret = 'cl1ent-s3cret-0123456789abcdefghijklmnopqrstuvwxyz';
const apiKey = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';

describe('redaction', () => {
  const r = createRedactor([secret, apiKey]);

  it('removes known secret values anywhere in text', () => {
    const out = r.text(`secret ${secret} and key ${apiKey}.`);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(apiKey);
  });

  it('removes JWTs, Bearer and Basic credentials even when unknown', () => {
    const basic = basicAuthorization('client', 'pw');
    const out = redact.text(`token ${jwt}; Authorization: Bearer opaque-token-123; ${basic}`);
    expect(out).not.toContain(jwt);
    expect(out).not.toContain('opaque-token-123');
    expect(out).not.toContain(basic.slice(6));
    expect(out).toContain('Bearer [REDACTED]');
  });

  it('removes key=value secrets (form bodies, JSON)', () => {
    const out = redact.text('client_secret=abc123def&access_token=xyz789 {"api_key": "k-123456"}');
    expect(out).not.toMatch(/abc123def|xyz789|k-123456/);
  });

  it('redacts sensitive headers, keeping the scheme', () => {
    const out = r.headers(new Headers({ Authorization: `Bearer ${jwt}`, 'x-api-key': apiKey, 'X-User-ID': 'u-1', Accept: 'application/json' }));
    expect(out.authorization).toBe('Bearer [REDACTED]');
    expect(out['x-api-key']).toBe('[REDACTED]');
    expect(out['x-user-id']).toBe('u-1');
    expect(out.accept).toBe('application/json');
  });

  it('redacts URLs: user info, secret query values, tokens in the path', () => {
    const out = r.url(`https://user:pw@api.example.com/v1/x/${jwt}?access_token=t0k3n&Signature=s1g&page=2`);
    expect(out).not.toMatch(/user:pw|t0k3n|s1g/);
    expect(out).not.toContain(jwt);
    expect(out).toContain('page=2');
  });

  it('redacts structured log fields deeply', () => {
    const out = JSON.stringify(r.value({
      headers: new Headers({ 'x-api-key': apiKey }),
      nested: { clientSecret: 'anything', list: [`Bearer ${jwt}`], error: new Error(`failed with ${secret}`) },
      authorization: `Basic ${btoa('id:pw')}`,
      code: 'throttled',
    }));
    expect(out).not.toContain(apiKey);
    expect(out).not.toContain('anything');
    expect(out).not.toContain(jwt);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(btoa('id:pw'));
    expect(out).toContain('throttled');
  });
});
