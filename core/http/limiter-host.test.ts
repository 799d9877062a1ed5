import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/support/fake-clock.ts';
import { createLimiterHost } from './limiter-host.ts';

const KEY = 'a'.repeat(64);
const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://host.test/x/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('createLimiterHost', () => {
  it('grants a turn with a lease, and answers the outcome with the key\'s state', async () => {
    const host = createLimiterHost();
    const turn = await host.fetch(post('turn', { key: KEY }));
    expect(turn.status).toBe(200);
    const { lease } = await turn.json() as { lease: string };
    const outcome = await host.fetch(post('outcome', { lease, outcome: 'server-error' }));
    expect(await outcome.json()).toEqual({ pauseRemainingMs: 0, failureStreak: 1 });
    const again = await host.fetch(post('outcome', { lease, outcome: 'success' }));
    expect(again.status).toBe(404); // reported once only
  });

  it('a lease not reported within leaseMs ends as unanswered, and its report then is refused', async () => {
    const clock = manualClock(0);
    const host = createLimiterHost({ now: clock.now, sleep: clock.sleep, leaseMs: 1000 });
    const { lease } = await (await host.fetch(post('turn', { key: KEY }))).json() as { lease: string };
    await clock.advance(1000);
    const late = await host.fetch(post('outcome', { lease, outcome: 'success' }));
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ error: expect.stringMatching(/unknown or expired lease/) });
  });

  it('pauses a key for every process', async () => {
    const clock = manualClock(0);
    const host = createLimiterHost({ now: clock.now, sleep: clock.sleep });
    const paused = await host.fetch(post('pause', { key: KEY, ms: 1500 }));
    expect(await paused.json()).toEqual({ pauseRemainingMs: 1500, failureStreak: 0 });
    const turn = host.fetch(post('turn', { key: KEY }));
    await clock.run(turn);
    expect(clock.now()).toBe(1500);
  });

  it('refuses bad requests with what to fix, and changes nothing', async () => {
    const host = createLimiterHost({ token: 't0ken' });
    const auth = { authorization: 'Bearer t0ken' };
    const cases: [Request, number, RegExp][] = [
      [post('turn', { key: KEY }), 401, /missing or wrong bearer token/],
      [post('turn', { key: KEY }, { authorization: 'Bearer nope' }), 401, /missing or wrong bearer token/],
      [post('turn', { key: 'pk_live_plain' }, auth), 400, /key: key must be the SHA-256/],
      [post('turn', { key: KEY, extra: 1 }, auth), 400, /bad turn request/],
      [post('turn', { key: KEY, rate: { requestsPerSecond: -1, burst: 1 } }, auth), 400, /rate/],
      [post('outcome', { lease: 'x', outcome: 'maybe' }, auth), 400, /outcome/],
      [post('pause', { key: KEY, ms: 'long' }, auth), 400, /ms/],
      [new Request('http://host.test/turn', { method: 'POST', headers: auth, body: '{' }), 400, /not JSON/],
      [new Request('http://host.test/turn', { headers: auth }), 405, /takes POST/],
      [new Request('http://host.test/turn', { method: 'POST', headers: auth, body: `{"key":"${'a'.repeat(5000)}"}` }), 413, /larger than 4096 bytes/],
      [post('elsewhere', {}, auth), 404, /unknown route/],
    ];
    for (const [request, status, message] of cases) {
      const response = await host.fetch(request);
      expect([response.status, (await response.json() as { error: string }).error]).toEqual([status, expect.stringMatching(message)]);
    }
    // Nothing was paused or held by those: a good turn is granted at once.
    expect((await host.fetch(post('turn', { key: KEY }, auth))).status).toBe(200);
  });

  it('refuses a lease time that is not a positive number', () => {
    expect(() => createLimiterHost({ leaseMs: 0 })).toThrow(/leaseMs must be a positive number/);
  });
});
