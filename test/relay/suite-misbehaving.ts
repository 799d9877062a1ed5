/**
 * The relay in front of a service that misbehaves (relay contract, "Errors" and "Headers"), on each runtime: a
 * failing token endpoint, an upstream that echoes credentials, hangs, drips, streams forever, cuts its body short or
 * nests JSON deeply, and a caller that leaves. Every answer comes within the deadline (`RELAY_DEADLINE_MS` = 1500
 * here), typed, and free of every secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicCredential } from '../../core/protocol.ts';
import { RELAY_KEY } from './support/fixture.ts';
import { API_KEY, CLIENT_ID, CLIENT_SECRET, COURSE, startMisbehaving, type Misbehaving } from './support/misbehaving.ts';
import type { RelayTarget, StartRelay } from './support/targets.ts';

const DEADLINE_MS = 1500;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
}

/** What the runtime lets the relay know. */
export interface SectionOptions {
  /** `false` where the runtime never tells the relay that its caller left (see {@link misbehavingSuite}). */
  callerLeaveSeen: boolean;
  /** Whether stopping the relay (SIGTERM) lets calls under way finish. */
  drains: boolean;
  /**
   * `false` where the request URL is built from the caller's Host and the entry knows no origin of its own (locally:
   * Miniflare, `deno serve`; on Cloudflare the platform routes by Host, so a foreign one never reaches the Worker).
   */
  hostIgnored: boolean;
}

/**
 * Registers the section for one runtime.
 *
 * @param name The runtime's name.
 * @param start Starts the relay there.
 * @param options `callerLeaveSeen: false` where the runtime never tells the relay its caller left: Miniflare's own
 *   entry worker sits between the socket and the relay and does not pass a disconnect on (on Cloudflare, the
 *   `enable_request_signal` flag in wrangler.jsonc does). There the deadline is what cancels the upstream request.
 *   `hostIgnored`: see {@link SectionOptions}.
 */
export function misbehavingSuite(name: string, start: StartRelay, options: SectionOptions): void {
  describe(`relay on ${name}, in front of a service that misbehaves`, () => {
    let upstream: Misbehaving;
    let relay: RelayTarget;
    const answers: Answer[] = [];

    const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
      const started = Date.now();
      const response = await fetch(`${relay.origin}${path}`, { ...init, headers: { 'x-relay-key': RELAY_KEY, ...init.headers } });
      const seen = { status: response.status, headers: response.headers, text: await response.text(), ms: Date.now() - started };
      answers.push(seen);
      return seen;
    };
    const code = (answer: Answer): unknown => (JSON.parse(answer.text) as { code?: unknown }).code;

    beforeAll(async () => {
      upstream = await startMisbehaving();
      relay = await start(upstream.settings);
    });
    afterAll(async () => {
      await relay?.stop();
      await upstream?.close();
    });

    it('a failing token endpoint fails every waiting caller at once; the next request tries afresh', async () => {
      upstream.tokenMode = 'fail';
      const burst = await Promise.all(Array.from({ length: 10 }, () => call(`/v1/courses/${COURSE.echo}`)));
      expect(burst.map((a) => a.status)).toEqual(Array(10).fill(502));
      expect(burst.every((a) => code(a) === 'upstream_auth_failed')).toBe(true);
      // Not one after another (the claim timeout made the tenth wait 45 s): all within a second of the failure.
      expect(Math.max(...burst.map((a) => a.ms))).toBeLessThan(DEADLINE_MS);
      expect(upstream.tokenRequests).toBeLessThanOrEqual(5);
      upstream.tokenMode = 'ok';
      const before = upstream.tokenRequests;
      expect((await call(`/v1/courses/${COURSE.echo}`)).status).toBe(200);
      expect(upstream.tokenRequests).toBe(before + 1);
    });

    it('an upstream that echoes the credentials: no answer carries them, x-request-id is not the bearer', async () => {
      const answer = await call(`/v1/courses/${COURSE.echo}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('[REDACTED]');
      expect(answer.headers.get('x-request-id') ?? '').not.toMatch(/^eyJ/);
      expect(answer.text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
    });

    it('an upstream that never answers: 504 upstream_timeout with Retry-After at the deadline, upstream cancelled', async () => {
      const answer = await call(`/v1/courses/${COURSE.hang}`);
      expect(answer.status).toBe(504);
      expect(code(answer)).toBe('upstream_timeout');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.ms).toBeLessThan(DEADLINE_MS + 3000);
      await expect.poll(() => upstream.cancelled.some((p) => p.endsWith(`/courses/${COURSE.hang}`)), { timeout: 5000 }).toBe(true);
    });

    it('a body that drips: 504 at the deadline', async () => {
      const answer = await call(`/v1/courses/${COURSE.drip}`);
      expect(answer.status).toBe(504);
      expect(answer.ms).toBeLessThan(DEADLINE_MS + 3000);
    });

    it.each([
      ['an endless body', COURSE.endless],
      ['a body cut short', COURSE.truncated],
      ['JSON nested 50,000 deep', COURSE.deep],
    ])('%s: 502 upstream_invalid, not 500', async (_what, id) => {
      const answer = await call(`/v1/courses/${id}`);
      expect(answer.status).toBe(502);
      expect(code(answer)).toBe('upstream_invalid');
    });

    it('a caller that leaves cancels its upstream request', async () => {
      const before = upstream.cancelled.length;
      const controller = new AbortController();
      const pending = fetch(`${relay.origin}/v1/courses/${COURSE.hang}`, { headers: { 'x-relay-key': RELAY_KEY }, signal: controller.signal }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort();
      await pending;
      // Well before the deadline would have cancelled it (or, where the runtime hides the disconnect, by the deadline).
      const within = options.callerLeaveSeen ? DEADLINE_MS - 500 : DEADLINE_MS + 2000;
      await expect.poll(() => upstream.cancelled.length > before, { timeout: within, interval: 50 }).toBe(true);
    });

    it('links in bodies take the relay origin, whatever Host the caller sends', async () => {
      const viaHost = async (origin: string): Promise<string> => {
        const { request } = await import('node:http');
        const url = new URL(`${origin}/v1/courses/${COURSE.echo}`);
        const text = await new Promise<string>((resolve, reject) => {
          const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example', 'x-relay-key': RELAY_KEY } }, (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve(body));
          });
          req.on('error', reject);
          req.end();
        });
        return (JSON.parse(text) as { '@id': string })['@id'];
      };
      if (options.hostIgnored) {
        expect(await viaHost(relay.origin)).toBe(`${relay.origin}/v1/courses/${COURSE.echo}`);
        return;
      }
      // Here the request URL is built from Host (locally: Miniflare, deno serve), so RELAY_PUBLIC_ORIGIN decides.
      const configured = await start({ ...upstream.settings, RELAY_PUBLIC_ORIGIN: 'https://relay.partner.example' });
      try {
        expect(await viaHost(configured.origin)).toBe(`https://relay.partner.example/v1/courses/${COURSE.echo}`);
      } finally {
        await configured.stop();
      }
    });

    it('PDFs: the upstream file name is never passed as a path; HEAD answers headers without the body', async () => {
      const headers = { 'x-user-id': '3f2504e0-4f89-41d3-9a0c-0305e82c3301' };
      const get = await call('/v1/transcript/pdf', { headers });
      expect(get.status).toBe(200);
      expect(get.headers.get('content-disposition')).toBe('attachment; filename="evil.exe"');
      const head = await call('/v1/transcript/pdf', { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/^application\/pdf/);
      expect(head.text).toBe('');
    });

    it('a restart (SIGTERM) lets a call under way finish with its answer', async () => {
      if (!options.drains) {
        // Miniflare's dispose ends workerd at once; on Cloudflare, the platform drains a deployment itself.
        expect(name).toBe('workerd');
        return;
      }
      const restarting = await start(upstream.settings);
      const pending = fetch(`${restarting.origin}/v1/courses/${COURSE.hang}`, { headers: { 'x-relay-key': RELAY_KEY } })
        .then((res) => res.status, () => 'lost');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopped = restarting.stop();
      expect(await pending).toBe(504);
      await stopped;
    });

    // Last of the calls: it leaves the key paused for 20 s.
    it('a key-wide pause longer than the deadline: the next caller gets 503 with Retry-After at once', async () => {
      const throttled = await call(`/v1/courses/${COURSE.throttled}`);
      expect([429, 504]).toContain(throttled.status);
      const next = await call(`/v1/courses/${COURSE.echo}`);
      expect(next.status).toBe(503);
      expect(code(next)).toBe('upstream_unavailable');
      expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(10);
      expect(next.ms).toBeLessThan(DEADLINE_MS / 2);
    });

    it('no answer and no log line holds a secret, in any spelling', () => {
      const shown = [...answers.map((a) => `${[...a.headers].join('\n')}\n${a.text}`), ...relay.lines].join('\n');
      const secrets = [...upstream.secrets, basicCredential(CLIENT_ID, CLIENT_SECRET)];
      for (const secret of secrets) {
        for (const form of [secret, encodeURIComponent(secret), [...secret].reverse().join('')]) expect(shown).not.toContain(form);
      }
      expect(shown).not.toContain(API_KEY);
    });
  });
}
