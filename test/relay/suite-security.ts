/**
 * Shared suite, part 2: forged tokens, traversal, open-proxy attempts, body cap, CORS, header allowlist, the
 * learner limit, and a scan of every response and log line for secrets.
 */
import { expect, it } from 'vitest';
import { AUDIENCE, jwtsIn, PARTNER_ORIGIN, payloadOf, signToken, unsignedToken, type Seen } from './support/fixture.ts';
import type { SuiteState } from './suite.ts';

const code = (seen: Seen): unknown => (seen.json() as { code?: unknown }).code;
const ALLOWED_HEADERS = new Set(['content-type', 'content-length', 'content-disposition', 'cache-control', 'x-request-id', 'retry-after',
  'allow', 'vary', 'www-authenticate', 'x-content-type-options', 'referrer-policy', 'content-security-policy', 'strict-transport-security',
  'x-frame-options',
  // Transport headers the runtime's HTTP server adds (workerd compresses on Accept-Encoding), not the relay.
  'date', 'connection', 'keep-alive', 'transfer-encoding', 'content-encoding']);

/** Runs `check` and asserts that nothing reached the service meanwhile. */
async function nothingUpstream(s: SuiteState, check: () => Promise<void>): Promise<void> {
  const before = (await s.upstream.requests()).length;
  await check();
  expect((await s.upstream.requests()).length).toBe(before);
}

/**
 * @param s The suite's shared state.
 */
export function securityChecks(s: SuiteState): void {
  it('refuses forged, expired and malformed learner tokens with 401 invalid_token, before going upstream', async () => {
    const ada = s.learners['ada'] ?? '';
    const now = Math.floor(Date.now() / 1000);
    const forged: Record<string, string> = {
      'alg none': unsignedToken(ada),
      'another key': await signToken({ sub: ada, aud: AUDIENCE, iat: now, exp: now + 600 }, 'some-other-secret-of-at-least-32-chars!'),
      expired: await signToken({ sub: ada, aud: AUDIENCE, iat: now - 700, exp: now - 60 }),
      'wrong aud': await signToken({ sub: ada, aud: 'another-service', iat: now, exp: now + 600 }),
      'no sub': await signToken({ aud: AUDIENCE, iat: now, exp: now + 600 }),
      'sub not a UUID': await signToken({ sub: 'ada', aud: AUDIENCE, iat: now, exp: now + 600 }),
      'iat in the future': await signToken({ sub: ada, aud: AUDIENCE, iat: now + 120, exp: now + 700 }),
      'longer than an hour': await signToken({ sub: ada, aud: AUDIENCE, iat: now, exp: now + 3601 }),
      'no exp': await signToken({ sub: ada, aud: AUDIENCE, iat: now }),
      'no iat': await signToken({ sub: ada, aud: AUDIENCE, exp: now + 600 }),
      garbage: 'abc.def.ghi',
    };
    await nothingUpstream(s, async () => {
      for (const [name, token] of Object.entries(forged)) {
        const seen = await s.http.learner(token, '/v1/me');
        expect([name, seen.status, code(seen)]).toEqual([name, 401, 'invalid_token']);
        expect(seen.headers.get('www-authenticate')).toMatch(/^Bearer /);
      }
      const within = await signToken({ sub: ada, aud: AUDIENCE, iat: now + 10, exp: now + 610 });
      expect((await s.http.learner(within, '/v1/modules/abc/content')).status).toBe(400);
    });
  });

  it('answers 401 unauthenticated without a credential or with a wrong relay key', async () => {
    await nothingUpstream(s, async () => {
      const attempts: Record<string, string>[] = [{}, { 'x-relay-key': 'x'.repeat(45) }, { authorization: 'Basic YTpi' }];
      for (const headers of attempts) {
        const seen = await s.http.call('/v1/courses/1', { headers });
        expect([seen.status, code(seen)]).toEqual([401, 'unauthenticated']);
      }
    });
  });

  it('routes first: unknown paths 404, other methods 405 with Allow, traversal and encoded slashes never go upstream', async () => {
    await nothingUpstream(s, async () => {
      for (const path of ['/v1/unknown', '/v1/http://evil.example/v1/ping', '/v1//evil.example/ping', '/https://evil.example/',
        '/v1/courses/1/extra', '/v2/ping', '/v1/users/register/..%2F..%2Fping']) {
        const seen = await s.http.backend(path);
        expect([path, seen.status, code(seen)]).toEqual([path, 404, 'not_found']);
      }
      const wrong = await s.http.backend('/v1/courses/1', { method: 'DELETE' });
      expect([wrong.status, code(wrong), wrong.headers.get('allow')]).toEqual([405, 'method_not_allowed', 'GET, HEAD, OPTIONS']);
      for (const path of ['/v1/modules/1%2Fcontent', '/v1/modules/..%2F..%2Fusers/content', '/v1/users/..%2F..%2Fping',
        '/v1/courses/%2F%2Fevil.example', '/v1/transcripts/1%2F..%2F2/certificate/pdf', '/v1/courses/-1', '/v1/courses/0x10']) {
        const seen = await s.http.backend(path, { userId: s.learners['ada'] });
        expect([path, seen.status, code(seen)]).toEqual([path, 400, 'validation_failed']);
      }
    });
  });

  it('caps request bodies at 64 KiB (413), declared or streamed', async () => {
    await nothingUpstream(s, async () => {
      const big = JSON.stringify({ email: 'x@example.com', padding: 'x'.repeat(70 * 1024) });
      const declared = await s.http.backend('/v1/users/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
      expect([declared.status, code(declared)]).toEqual([413, 'payload_too_large']);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 40; i += 1) controller.enqueue(new Uint8Array(4096).fill(32));
          controller.close();
        },
      });
      const streamed = await s.http.backend(`/v1/users/${s.learners['ada']}`, {
        method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: stream, duplex: 'half',
      } as RequestInit);
      expect([streamed.status, code(streamed)]).toEqual([413, 'payload_too_large']);
    });
  });

  it('CORS: only listed origins get Access-Control-Allow-Origin, on every answer including 401; preflight 204', async () => {
    const ok = await s.http.learner(s.tokens['ada'] ?? '', '/v1/me', { headers: { origin: PARTNER_ORIGIN } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(PARTNER_ORIGIN);
    expect(ok.headers.get('vary')).toMatch(/origin/i);
    const denied = await s.http.call('/v1/me', { headers: { origin: PARTNER_ORIGIN } });
    expect([denied.status, denied.headers.get('access-control-allow-origin')]).toEqual([401, PARTNER_ORIGIN]);
    const evil = await s.http.learner(s.tokens['ada'] ?? '', '/v1/me', { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await s.http.call('/v1/me', {
      method: 'OPTIONS',
      headers: { origin: PARTNER_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-evil' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PARTNER_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('authorization,content-type');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    const evilPreflight = await s.http.call('/v1/me', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('limits each learner to 120 requests a minute (429 rate_limited), others unaffected', async () => {
    const eve = await s.http.backend('/v1/users/register', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `eve-${Date.now()}@example.com`, firstName: 'Eve', lastName: 'Learner', organizationId: 1 }),
    });
    const minted = await s.http.backend('/v1/learner-tokens', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId: (eve.json() as { uuid: string }).uuid }),
    });
    const token = (minted.json() as { token: string }).token;
    let passed = 0;
    let limited: Seen | undefined;
    // An invalid id is refused after the limit is counted and before anything goes upstream.
    while (!limited && passed < 260) {
      const seen = await s.http.learner(token, '/v1/modules/x/content');
      if (seen.status === 429) limited = seen;
      else passed += 1;
    }
    expect(limited && code(limited)).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(passed).toBeGreaterThanOrEqual(120);
    expect(passed).toBeLessThanOrEqual(240);
    expect((await s.http.learner(s.tokens['ada'] ?? '', '/v1/me')).status).toBe(200);
  });

  it('every error is problem+json with a code; only allowlisted headers ever come back', () => {
    expect(s.http.seen.length).toBeGreaterThan(50);
    for (const seen of s.http.seen) {
      for (const name of seen.headers.keys()) {
        if (!name.startsWith('access-control-')) expect(ALLOWED_HEADERS.has(name), name).toBe(true);
      }
      expect(seen.headers.get('x-request-id')).toBeTruthy();
      expect(seen.headers.get('x-content-type-options')).toBe('nosniff');
      if (seen.status >= 400) {
        expect(seen.headers.get('content-type')).toBe('application/problem+json');
        expect(seen.json()).toMatchObject({ status: seen.status, code: expect.any(String), type: expect.any(String), title: expect.any(String) });
      }
    }
  });

  it('the runtime logged no cross-request I/O or promise warning (workerd)', () => {
    const warnings = s.relay.lines.filter((line) => /different request|never generate a response|hung/i.test(line));
    expect(warnings).toEqual([]);
  });

  it('no response or log line holds a credential, a relay key, the learner-token secret or an upstream token', () => {
    const texts = [...s.http.seen.map((seen) => `${JSON.stringify([...seen.headers])}\n${seen.text}`), ...s.relay.lines];
    expect(s.relay.lines.length).toBeGreaterThan(20);
    for (const text of texts) {
      for (const secret of s.upstream.secrets) expect(text.includes(secret)).toBe(false);
      // Learner tokens are handed out on purpose; any other JWT would be the service's access token.
      for (const jwt of jwtsIn(text)) expect(payloadOf(jwt)['aud']).toBe(AUDIENCE);
    }
  });
}
