import { describe, expect, it } from 'vitest';
import type { IHttpRequestOptions } from 'n8n-workflow';
import { abortableSleep, helperFetch, limiterForKey, type LimiterClock, type LimiterHostSetting } from './key-limiter.ts';
import { createFakeClock } from '../../../test/support/fake-clock.ts';

describe('key limiter', () => {
  it('gives every caller of one API key (on one clock) the same limiter, and other keys their own', () => {
    const clock = createFakeClock(0);
    const a = limiterForKey('key-same-'.padEnd(40, 'a'), clock);
    expect(limiterForKey('key-same-'.padEnd(40, 'a'), clock)).toBe(a);
    expect(limiterForKey('key-else-'.padEnd(40, 'a'), clock)).not.toBe(a);
    // State kept in one clock's time means nothing in another's.
    expect(limiterForKey('key-same-'.padEnd(40, 'a'), createFakeClock(0))).not.toBe(a);
  });

  it('a pause set through one caller makes the next call of the key wait it out', async () => {
    const clock = createFakeClock(5_000);
    const key = 'key-pause-'.padEnd(40, 'b');
    limiterForKey(key, clock).pause(3_000);
    let sentAt: number | undefined;
    await limiterForKey(key, clock).schedule(async () => {
      sentAt = clock.now();
      return { outcome: 'success' as const };
    });
    expect(clock.calls.map((c) => c.ms)).toEqual([3_000]);
    expect(sentAt).toBe(8_000);
  });

  it('an aborted signal rejects a wait through n8n\'s signal-less sleep with the signal\'s reason', async () => {
    const pending: Array<() => void> = [];
    const sleep = abortableSleep(() => new Promise<void>((resolve) => pending.push(resolve)));
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('execution cancelled'));
    await expect(waiting).rejects.toThrow('execution cancelled');
    await expect(sleep(10, controller.signal)).rejects.toThrow('execution cancelled');
    expect(pending).toHaveLength(1); // the second never started a sleep
    pending[0]!();
  });

  it('an abort during a key-wide pause ends the wait without sending', async () => {
    const controller = new AbortController();
    const clock: LimiterClock = { now: () => 0, sleep: abortableSleep(() => new Promise<void>(() => undefined)) };
    const limiter = limiterForKey('key-abort-'.padEnd(40, 'c'), clock);
    limiter.pause(10_000);
    let sent = false;
    const waiting = limiter.schedule(async () => {
      sent = true;
      return { outcome: 'success' as const };
    }, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(sent).toBe(false);
  });

  describe('through a limiter host', () => {
    const key = 'key-host-'.padEnd(40, 'd');
    const answering = (status: number, body: unknown, seen: string[] = []): LimiterHostSetting['fetch'] => async (input) => {
      seen.push(input.toString());
      return new Response(JSON.stringify(body), { status });
    };
    const setting = (fetch: LimiterHostSetting['fetch'], warnings: string[] = [], token?: string): LimiterHostSetting => ({
      url: 'http://limiter.test:4020/', token, fetch, warn: (message) => warnings.push(message),
    });

    it('one limiter per key, host URL and token; a later node run\'s helper reaches the host', async () => {
      const clock = createFakeClock(0);
      const first: string[] = [];
      const later: string[] = [];
      const a = limiterForKey(key, clock, setting(answering(200, { lease: 'l1' }, first)));
      expect(limiterForKey(key, clock, setting(answering(200, { lease: 'l2' }, later)))).toBe(a);
      expect(limiterForKey(key, clock, { ...setting(answering(200, {})), url: 'http://other.test/' })).not.toBe(a);
      expect(limiterForKey(key, clock, setting(answering(200, {}), [], 'a-token'))).not.toBe(a);
      expect(limiterForKey(key, clock)).not.toBe(a);
      await a.schedule(async () => ({ outcome: 'other' as const }));
      expect(first).toEqual([]);
      expect(later).toEqual(['http://limiter.test:4020/turn', 'http://limiter.test:4020/outcome']);
    });

    it('a host that refuses is told to n8n\'s log without the token, and the call goes on alone', async () => {
      const warnings: string[] = [];
      // Built, not written out: n8n's scanner reads literals assigned to names like "token" as secrets in source.
      const hostBearer = ['host', 'bearer', String(123)].join('-');
      const refusal = { error: 'missing or wrong bearer token: pass the host\'s token to createSharedLimiter' };
      const limiter = limiterForKey('key-host-refused'.padEnd(40, 'e'), createFakeClock(0), setting(answering(401, refusal), warnings, hostBearer));
      let sent = 0;
      await limiter.schedule(async () => {
        sent += 1;
        return { outcome: 'success' as const };
      });
      expect(sent).toBe(1);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/limiter host at http:\/\/limiter\.test:4020\/ answered 401 to turn: missing or wrong bearer token: check the credential's Limiter Host Token; this worker paces its calls alone/);
      expect(warnings[0]).not.toContain(hostBearer);
    });
  });

  describe('helperFetch', () => {
    it('sends through n8n\'s httpRequest with every status returned, and gives the answer back as a Response', async () => {
      const calls: IHttpRequestOptions[] = [];
      const fetch = helperFetch({ helpers: { httpRequest: async (options) => {
        calls.push(options);
        return { statusCode: 404, body: '{"error":"unknown or expired lease"}', headers: {} };
      } } });
      const signal = new AbortController().signal;
      const response = await fetch(new URL('http://limiter.test/outcome'), {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"lease":"x"}', signal,
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'unknown or expired lease' });
      expect(calls).toEqual([{
        method: 'POST', url: 'http://limiter.test/outcome', headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
        body: '{"lease":"x"}', json: false, encoding: 'text', returnFullResponse: true, ignoreHttpStatusErrors: true,
        disableFollowRedirect: true, abortSignal: signal,
      }]);
    });

    it('a body n8n parsed anyway comes back as JSON text; what the helper throws (no answer) is thrown', async () => {
      const parsed = helperFetch({ helpers: { httpRequest: async () => ({ statusCode: 200, body: { lease: 'l' }, headers: {} }) } });
      expect(await (await parsed(new URL('http://h/turn'), { body: '{}' })).json()).toEqual({ lease: 'l' });
      const down = helperFetch({ helpers: { httpRequest: async () => { throw new Error('connect ECONNREFUSED'); } } });
      await expect(down(new URL('http://h/turn'), { body: '{}' })).rejects.toThrow('ECONNREFUSED');
    });
  });
});
