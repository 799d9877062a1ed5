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

  describe('a turn with a ticket', () => {
    const RATE = { requestsPerSecond: 1, burst: 1 };
    /** A host on a manual clock, holding ticketed turns 300 ms; a ceiling of 1 req/s spaces the turns 1 s apart. */
    function ticketed() {
      const clock = manualClock(0);
      const host = createLimiterHost({ now: clock.now, sleep: clock.sleep, holdMs: 300 });
      /** Asks for a turn; resolves with when and how the host answered. */
      const ask = async (ticket?: string, signal?: AbortSignal) => {
        const response = await host.fetch(new Request('http://host.test/x/turn', {
          method: 'POST', body: JSON.stringify({ key: KEY, rate: RATE, ...(ticket ? { ticket } : {}) }), ...(signal ? { signal } : {}),
        }));
        return { at: clock.now(), status: response.status, body: await response.json() as { lease?: string; queued?: true } };
      };
      /** Asks with the ticket until the host grants the turn, as a shared limiter does. */
      const askUntilGranted = async (ticket: string) => {
        for (;;) {
          const answer = await ask(ticket);
          if (answer.status !== 202) return answer;
        }
      };
      const report = async (lease: string | undefined) =>
        (await host.fetch(post('outcome', { lease, outcome: 'success' }))).status;
      return { clock, host, ask, askUntilGranted, report };
    }

    it('is held at most holdMs, answered 202 queued, and keeps its place when asked again', async () => {
      const { clock, ask, askUntilGranted, report } = ticketed();
      expect(await report((await ask()).body.lease)).toBe(200); // the slot at 0
      expect(await clock.run(ask('ticket-one'))).toEqual({ at: 300, status: 202, body: { queued: true } });
      // Another caller joins behind it while it is away between asks, and asks until granted too.
      const other = askUntilGranted('ticket-two');
      await clock.advance(100);
      const granted = await clock.run(askUntilGranted('ticket-one'));
      expect([granted.at, granted.status]).toEqual([1000, 200]); // its own slot, not the later caller's
      expect(await report(granted.body.lease)).toBe(200);
      const second = await clock.run(other);
      expect([second.at, second.status]).toEqual([2000, 200]);
    });

    it('a ticket not asked again within 5 s gives up its place, and its lease, to those behind it', async () => {
      const { clock, ask, askUntilGranted, report } = ticketed();
      expect(await report((await ask()).body.lease)).toBe(200);
      expect((await clock.run(ask('ticket-away'))).status).toBe(202); // at 300; its slot at 1000 is granted unseen
      await clock.advance(4000); // 4300
      const callers = [ask(), ask(), ask()];
      await clock.advance(1100); // 5400
      // The lease granted to no one held the ceiling's one call in flight until the place was given up, at 5300
      // (not at the lease's expiry, a minute on); then the three went, a second apart.
      expect((await clock.run(Promise.all(callers))).map((c) => c.at)).toEqual([5300, 6300, 7300]);
      // Asked again too late: a new place, behind the three, not the old lease at once.
      const answered = await clock.run(askUntilGranted('ticket-away'));
      expect([answered.at, answered.status]).toEqual([8300, 200]);
    });

    it('an ask that goes while held leaves the line at once: the next caller takes its slot', async () => {
      const { clock, ask, report } = ticketed();
      expect(await report((await ask()).body.lease)).toBe(200);
      const controller = new AbortController();
      const gone = ask('ticket-gone', controller.signal).catch(() => 'aborted');
      await clock.advance(100);
      controller.abort();
      await gone;
      const next = await clock.run(ask());
      expect([next.at, next.status]).toEqual([1000, 200]);
    });
  });

  it('refuses bad requests with what to fix, and changes nothing', async () => {
    const host = createLimiterHost({ token: 't0ken' });
    const auth = { authorization: 'Bearer t0ken' };
    const cases: [Request, number, RegExp][] = [
      [post('turn', { key: KEY }), 401, /missing or wrong bearer token/],
      [post('turn', { key: KEY }, { authorization: 'Bearer nope' }), 401, /missing or wrong bearer token/],
      [post('turn', { key: 'pk_live_plain' }, auth), 400, /key: key must be the SHA-256/],
      [post('turn', { key: KEY, extra: 1 }, auth), 400, /bad turn request/],
      [post('turn', { key: KEY, ticket: 'a b' }, auth), 400, /ticket: ticket must be 8 to 64 letters/],
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

  it('answers a health check without a token, and says nothing about any key', async () => {
    const host = createLimiterHost({ token: 't0ken' });
    await host.fetch(post('turn', { key: KEY }, { authorization: 'Bearer t0ken' }));
    const health = await host.fetch(new Request('http://host.test/x/health'));
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    expect((await host.fetch(new Request('http://host.test/x/health', { method: 'POST' }))).status).toBe(404);
  });

  it('refuses a lease or hold time that is not a positive number', () => {
    expect(() => createLimiterHost({ leaseMs: 0 })).toThrow(/leaseMs must be a positive number/);
    expect(() => createLimiterHost({ holdMs: -1 })).toThrow(/holdMs must be a positive number/);
  });
});
