import { afterEach, describe, it, expect, vi } from 'vitest';
import { normalizeOptions } from './options.ts';
import { ConfigurationError } from './errors/index.ts';
import { defaultTokenStore, MemoryTokenStore } from './auth/memory-token-store.ts';

const secret = 'sup3r-s3cret-value-that-is-long-enough-0123456789';
const apiKey = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd'; // 40
const valid = {
  tokenUrl: 'https://auth.example.com/oauth2/token',
  baseUrl: 'https://api.example.com/sandbox/v1',
  clientId: '1a2b3c4d5e6f7g8h9i0j1k2l3m', // 26
  clientSecret: secret,
  apiKey,
};

function problem(options: Record<string, unknown>): ConfigurationError {
  try {
    normalizeOptions(options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    const e = error as ConfigurationError;
    expect(e.message).not.toContain(secret);
    expect(e.message).not.toContain(apiKey);
    return e;
  }
  throw new Error('expected a ConfigurationError');
}

describe('normalizeOptions', () => {
  it.each([
    ['apiKey', `${apiKey.slice(0, 20)}\r\nX-Injected: 1${apiKey.slice(20)}`, /apiKey may hold only visible ASCII/],
    ['apiKey', `${apiKey.slice(0, 20)} ${apiKey.slice(20)}`, /apiKey may hold only visible ASCII/],
    ['apiKey', `${apiKey.slice(0, 39)}é`, /apiKey may hold only visible ASCII/],
    ['clientSecret', `${secret.slice(0, 10)}\n${secret.slice(10)}`, /clientSecret contains a control character/],
    ['clientId', '1a2b3c4d5e6f7g8h9i0j1k2l\u0000m', /clientId contains a control character/],
  ])('refuses a header-unsafe %s without echoing it', (field, value, expected) => {
    const error = problem({ ...valid, [field]: value });
    expect(error.message).toMatch(expected);
    for (const part of value.split(String.fromCharCode(0)).flatMap((p) => p.split(/[\r\n ]/))) if (part.length >= 8) expect(error.message).not.toContain(part);
    expect(JSON.stringify(error)).not.toContain(value.slice(0, 12));
  });

  it('fills in the defaults', () => {
    const o = normalizeOptions(valid);
    expect(o.scopes).toEqual(['partner-api/read', 'partner-api/write']);
    expect(o.rateLimit).toBe('adaptive');
    expect(o.retry).toEqual({ maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 });
    expect(o.timeoutMs).toBe(30_000);
    expect(o.tokenStore).toBe(defaultTokenStore);
    expect(o.shareInFlight).toBe(true);
    expect(o.logger).toBeUndefined();
    expect(typeof o.fetch).toBe('function');
    expect(Math.abs(o.now() - Date.now())).toBeLessThan(5000);
  });

  describe('inside Cloudflare Workers', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('does not share in-flight token requests by default, unless told to', () => {
      vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
      expect(normalizeOptions(valid).shareInFlight).toBe(false);
      expect(normalizeOptions({ ...valid, shareInFlight: true }).shareInFlight).toBe(true);
    });
  });

  it('keeps injected parts and derives the burst of a fixed rate', () => {
    const store = new MemoryTokenStore();
    const o = normalizeOptions({ ...valid, tokenStore: store, rateLimit: { requestsPerSecond: 5 }, scopes: ['partner-api/read'] });
    expect(o.tokenStore).toBe(store);
    expect(o.rateLimit).toEqual({ requestsPerSecond: 5, burst: 5 });
    expect(o.scopes).toEqual(['partner-api/read']);
  });

  it.each([
    [{ tokenUrl: undefined }, 'tokenUrl'],
    [{ clientSecret: '' }, 'clientSecret is required'],
    [{ apiKey: undefined }, 'apiKey'],
    [{ baseUrl: 'api.example.com/v1' }, 'baseUrl must be an absolute http(s) URL'],
    [{ baseUrl: 'ftp://api.example.com/v1' }, 'baseUrl must use https'],
    [{ baseUrl: 'https://api.example.com/sandbox/v1/' }, 'remove the trailing slash'],
    [{ baseUrl: 'https://api.example.com/sandbox' }, 'baseUrl must end in /v1'],
    [{ tokenUrl: 'https://auth.example.com/token' }, "tokenUrl's path must end in /oauth2/token"],
    [{ tokenUrl: 'https://user:pw@auth.example.com/oauth2/token' }, 'must not contain credentials'],
    [{ scopes: [] }, 'scopes must not be empty'],
    [{ scopes: ['partner-api/read partner-api/write'] }, 'without spaces'],
    [{ rateLimit: { requestsPerSecond: 0 } }, 'requestsPerSecond must be > 0'],
    [{ rateLimit: 'fast' }, 'rateLimit'],
    [{ retry: { maxAttempts: 0 } }, 'retry.maxAttempts must be at least 1'],
    [{ retry: { baseDelayMs: 5000, maxDelayMs: 1000 } }, 'retry.maxDelayMs must be at least retry.baseDelayMs'],
    [{ timeoutMs: 0 }, 'timeoutMs must be at least 1'],
    [{ fetch: 'nope' }, 'fetch must be a function'],
    [{ tokenStore: {} }, 'tokenStore must have get, set and delete'],
  ])('rejects %j with a message naming the problem', (override, expected) => {
    expect(problem({ ...valid, ...override }).message).toContain(expected);
  });

  it('says when the client ID and API key look swapped, without echoing either', () => {
    const e = problem({ ...valid, clientId: apiKey, apiKey: valid.clientId });
    expect(e.message).toContain('clientId and apiKey look swapped');
    expect(e.message).not.toContain(valid.clientId);
  });

  it('does not call a bare origin a trailing slash; says /v1 is missing', () => {
    for (const baseUrl of ['https://api.example.com', 'https://api.example.com/sandbox']) {
      const e = problem({ ...valid, baseUrl });
      expect(e.message).not.toContain('trailing slash');
      expect(e.message).toContain('baseUrl must end in /v1');
    }
  });

  it('reports both a trailing slash and a missing /v1', () => {
    const e = problem({ ...valid, baseUrl: 'https://api.example.com/sandbox/' });
    expect(e.message).toContain('remove the trailing slash');
    expect(e.message).toContain('baseUrl must end in /v1');
  });

  it('rejects an API key equal to the secret without echoing it', () => {
    expect(problem({ ...valid, apiKey: secret }).message).toContain('apiKey has the same value');
  });

  it('takes a log level and refuses anything else, naming the field', () => {
    expect(normalizeOptions(valid).logLevel).toBe('debug');
    expect(normalizeOptions({ ...valid, logLevel: 'warn' }).logLevel).toBe('warn');
    expect(problem({ ...valid, logLevel: 'verbose' }).message).toMatch(/logLevel must be 'debug', 'info', 'warn' or 'error'/);
  });

  it('lists every problem at once', () => {
    const e = problem({ ...valid, baseUrl: 'https://a.example.com/v1/', tokenUrl: 'https://a.example.com/x' });
    expect(e.message).toContain('trailing slash');
    expect(e.message).toContain('/oauth2/token');
    expect(e.code).toBe('configuration_error');
    expect(e.origin).toBe('client');
  });

  it('does not show secrets when the normalized options are serialized', () => {
    const text = JSON.stringify(normalizeOptions(valid));
    expect(text).not.toContain(secret);
    expect(text).not.toContain(apiKey);
  });
});
