import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { createRedactor } from '../redact.ts';
import { NetworkError } from './network-error.ts';
import { scrubError } from './scrub.ts';

const apiKey = 'ApiKey-0123456789abcdefghijklmnopqrstuv';
const secret = 'client-secret-0123456789abcdefghijkl';

/** What a fetch implementation may throw: an error holding the Request, with its credential headers. */
function fetchFailure(): Error {
  const request = new Request('https://api.example.com/v1/courses', {
    headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'x-api-key': apiKey },
  });
  const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  return Object.assign(new TypeError('fetch failed', { cause: socket }), { request });
}

describe('error causes and scrubbing', () => {
  it('keeps a cause chain that helps diagnose (name, message, code) and drops what it carried', () => {
    const error = new NetworkError({ message: 'The request did not reach the service', origin: 'network', cause: fetchFailure() });
    const cause = error.cause as Error & { code?: string; request?: unknown };
    expect(cause).toBeInstanceOf(Error);
    expect(cause.name).toBe('TypeError');
    expect(cause.request).toBeUndefined();
    expect((cause.cause as { code?: string }).code).toBe('ECONNREFUSED');
    const printed = inspect(error, { depth: 10 });
    expect(printed).toContain('ECONNREFUSED');
    expect(printed).not.toContain(apiKey);
    expect(printed).not.toContain('eyJhbGciOiJSUzI1NiJ9');
  });

  it('serializes to its public fields, never the cause', () => {
    const error = new NetworkError({ message: 'offline', origin: 'network', cause: fetchFailure() });
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({ name: 'NetworkError', code: 'network_error', origin: 'network' });
    expect(json.message).toContain('offline');
    expect(json).not.toHaveProperty('cause');
  });

  it('removes the exact configured secrets from message, URL and cause', () => {
    const error = new NetworkError({
      message: `proxy said: bad key ${apiKey}`,
      origin: 'network',
      url: `https://api.example.com/v1/x?q=${secret}`,
      cause: new Error(`echo ${secret}`),
    });
    const scrubbed = scrubError(error, createRedactor([apiKey, secret]));
    expect(scrubbed).toBe(error);
    const printed = `${error.message} ${error.url ?? ''} ${(error.cause as Error).message} ${inspect(error, { depth: 10 })}`;
    expect(printed).not.toContain(apiKey);
    expect(printed).not.toContain(secret);
    expect(error.message).toContain('[REDACTED]');
  });

  it('leaves errors that are not the client\'s own untouched', () => {
    const reason = new Error(`caller's own abort ${secret}`);
    expect(scrubError(reason, createRedactor([secret])).message).toContain(secret);
  });
});
