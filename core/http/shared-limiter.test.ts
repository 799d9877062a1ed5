import { describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../../test/support/fake-clock.ts';
import { sha256Hex } from '../hash.ts';
import { createLimiter, type Limiter, type Outcome } from './limiter.ts';
import { createLimiterHost, type LimiterHost } from './limiter-host.ts';
import { createSharedLimiter, type SharedLimiterOptions } from './shared-limiter.ts';

const URL_ = 'http://limiter.test/pace';
const KEY = 'pk_live_secret_key_0001';

/**
 * The host reached in-process, every request and its JSON body recorded. `busy` (an outcome or a pause in flight)
 * holds a manual clock still; a turn is not counted, as it is answered only when the host's clock reaches the slot.
 */
function wire(host: LimiterHost, down = false) {
  const sent: { route: string; body: string; authorization: string | null }[] = [];
  let inFlight = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ route: new URL(request.url).pathname, body: String(init?.body ?? ''), authorization: request.headers.get('authorization') });
    if (down) throw new TypeError('fetch failed: connect ECONNREFUSED');
    const counted = !request.url.endsWith('/turn');
    if (counted) inFlight += 1;
    try {
      return await host.fetch(request);
    } finally {
      if (counted) inFlight -= 1;
    }
  }) as typeof globalThis.fetch;
  return { fetch, sent, busy: () => inFlight > 0 };
}

/** A call that records when it went (clock time) and by whom, answering `outcome`. */
function call(limiter: Limiter, clock: ManualClock, log: [string, number][], who: string, outcome: Outcome = 'success', signal?: AbortSignal) {
  return limiter.schedule(async () => {
    log.push([who, clock.now()]);
    return { outcome };
  }, signal);
}

function setup(extra: Partial<SharedLimiterOptions> = {}, hostOptions: Parameters<typeof createLimiterHost>[0] = {}) {
  const clock = manualClock(0);
  const host = createLimiterHost({ now: clock.now, sleep: clock.sleep, ...hostOptions });
  const net = wire(host);
  const make = (options: Partial<SharedLimiterOptions> = {}) =>
    createSharedLimiter({ url: URL_, apiKey: KEY, fetch: net.fetch, now: clock.now, sleep: clock.sleep, ...extra, ...options });
  const run = <T>(work: Promise<T>) => clock.run(work, { busy: net.busy });
  return { clock, host, net, make, run };
}

describe('createSharedLimiter with createLimiterHost', () => {
  it('paces two processes of one key as one: a rate of 1 req/s shared goes one call a second between them', async () => {
    const { clock, make, run } = setup({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const a = make();
    const b = make();
    const log: [string, number][] = [];
    await run(Promise.all([call(a, clock, log, 'a'), call(b, clock, log, 'b'), call(a, clock, log, 'a'), call(b, clock, log, 'b')]));
    expect(log.map(([, at]) => at)).toEqual([0, 1000, 2000, 3000]);
    expect(new Set(log.map(([who]) => who))).toEqual(new Set(['a', 'b']));

    // Each with a limiter of its own, both would go at once.
    const alone: [string, number][] = [];
    const local = () => createLimiter({ now: clock.now, sleep: clock.sleep, rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const start = clock.now();
    await run(Promise.all([call(local(), clock, alone, 'a'), call(local(), clock, alone, 'b')]));
    expect(alone.map(([, at]) => at - start)).toEqual([0, 0]);
  });

  it('takes a rate without a burst, as createClient does: one second\'s worth, on the wire as on the host', async () => {
    const errors: Error[] = [];
    const { clock, make, run, net } = setup({ rateLimit: { requestsPerSecond: 1 }, onHostError: (error) => errors.push(error) });
    const a = make();
    const b = make();
    const log: [string, number][] = [];
    await run(Promise.all([call(a, clock, log, 'a'), call(b, clock, log, 'b'), call(a, clock, log, 'a')]));
    expect(log.map(([, at]) => at)).toEqual([0, 1000, 2000]);
    expect(errors).toEqual([]); // the host refused a rate without a burst, and each process paced alone
    expect(JSON.parse(net.sent.find((s) => s.route.endsWith('/turn'))!.body).rate).toEqual({ requestsPerSecond: 1, burst: 1 });
  });

  it('a 429 one process met slows the other: the host learns from every process\'s outcomes', async () => {
    const { clock, make, run } = setup();
    const a = make();
    const b = make();
    const log: [string, number][] = [];
    await run(call(a, clock, log, 'a', 'success'));
    await run(call(a, clock, log, 'a', 'throttled'));
    const before = clock.now();
    await run(call(b, clock, log, 'b'));
    expect(log.at(-1)![1]).toBeGreaterThan(before); // paced after the 429, though b never met one
  });

  it('a pause one process makes holds the other, and the key\'s streak of 5xx is the host\'s', async () => {
    const { clock, make, run } = setup();
    const a = make();
    const b = make();
    await run(call(a, clock, [], 'a', 'server-error'));
    expect(a.failureStreak).toBe(1);
    a.pause(2000);
    const log: [string, number][] = [];
    await run(call(b, clock, log, 'b', 'server-error'));
    expect(log[0]![1]).toBe(2000);
    expect(b.failureStreak).toBe(2);
    expect(b.pauseRemaining()).toBe(0);
  });

  it('does not share between API keys', async () => {
    const { clock, make, run } = setup({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const log: [string, number][] = [];
    await run(Promise.all([call(make(), clock, log, 'a'), call(make({ apiKey: 'another-key' }), clock, log, 'b')]));
    expect(log.map(([, at]) => at)).toEqual([0, 0]);
  });

  it('sends the host only the SHA-256 of the API key, and the token only in its header', async () => {
    const { clock, make, run, net } = setup({ token: 'host-token-xyz' }, { token: 'host-token-xyz' });
    await run(call(make(), clock, [], 'a', 'throttled'));
    expect(net.sent.map((s) => s.route)).toEqual(['/pace/turn', '/pace/outcome']);
    expect(JSON.parse(net.sent[0]!.body)).toEqual({ key: await sha256Hex(KEY), rate: 'adaptive', ticket: expect.stringMatching(/^[0-9a-f-]{36}$/), holdMs: 15_000 });
    for (const s of net.sent) {
      expect(s.body).not.toContain(KEY);
      expect(s.body).not.toContain('host-token-xyz');
      expect(s.authorization).toBe('Bearer host-token-xyz');
    }
  });

  it('a caller that aborts while in line leaves it without sending, and the next goes in its slot', async () => {
    const { clock, make, run, net } = setup({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const a = make();
    const log: [string, number][] = [];
    const controller = new AbortController();
    // The first call alone: two first calls at once each hash the key (no promise is shared, for workerd), and which
    // hash ends first decides which is first in line, so the order would be the thread pool's.
    await run(call(a, clock, log, 'first'));
    const left = call(a, clock, log, 'left', 'success', controller.signal);
    const rejected = expect(left).rejects.toThrow('gave up');
    const turns = () => net.sent.filter((s) => s.route === '/pace/turn').length;
    for (let i = 0; i < 1000 && turns() < 2; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(turns()).toBe(2); // it waits in the host's line for the slot at 1 s
    controller.abort(new Error('gave up'));
    await rejected;
    await run(call(a, clock, log, 'next'));
    expect(log).toEqual([['first', 0], ['next', 1000]]);
  });

  it('a long wait in line is asked for again each holdMs with one ticket, and the call goes in its own slot', async () => {
    const { clock, make, run, net } = setup({ rateLimit: { requestsPerSecond: 1, burst: 1 } }, { holdMs: 350 });
    const [a, b] = [make(), make()];
    const log: [string, number][] = [];
    await run(Promise.all([call(a, clock, log, 'a1'), call(a, clock, log, 'a2'), call(b, clock, log, 'b1'), call(a, clock, log, 'a3')]));
    expect(log.map(([, at]) => at)).toEqual([0, 1000, 2000, 3000]); // one line, a slot each
    const turns = net.sent.filter((s) => s.route === '/pace/turn').map((s) => (JSON.parse(s.body) as { ticket: string }).ticket);
    const asks = [...new Set(turns)].map((ticket) => turns.filter((t) => t === ticket).length);
    // One ticket per call, asked again every 350 ms while in line: 0, 1, 2 and 3 s in line, so 1, 3, 6 and 9 asks.
    expect(asks.sort((x, y) => x - y)).toEqual([1, 3, 6, 9]);
  });

  it('while the host cannot be reached, calls go through a limiter of this process, and the host is tried again later', async () => {
    const clock = manualClock(0);
    const net = wire(createLimiterHost({ now: clock.now, sleep: clock.sleep }), true);
    const errors: Error[] = [];
    const limiter = createSharedLimiter({
      url: 'http://limiter.test/', apiKey: KEY, token: 'tok-123', fetch: net.fetch, now: clock.now, sleep: clock.sleep,
      retryHostMs: 5000, onHostError: (e) => errors.push(e),
    });
    const log: [string, number][] = [];
    await clock.run(call(limiter, clock, log, 'a'));
    await clock.run(call(limiter, clock, log, 'a'));
    expect(log).toHaveLength(2); // no call failed
    expect(net.sent).toHaveLength(1); // one try, then the host is left alone for retryHostMs
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('The limiter host at http://limiter.test/ could not be reached (fetch failed: connect ECONNREFUSED)');
    await clock.advance(5000);
    await clock.run(call(limiter, clock, log, 'a'));
    expect(net.sent).toHaveLength(2);
  });

  it('a host that hangs holds a call at most its ask\'s hold and 10 s, and then one call at a time tries it again', async () => {
    const clock = manualClock(0);
    const asked: string[] = [];
    // Accepts every request and never answers, as a wedged process or a proxy with no upstream may.
    const fetch = ((input: URL, init: RequestInit) => {
      asked.push(new URL(input).pathname);
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }) as unknown as typeof globalThis.fetch;
    const errors: Error[] = [];
    const limiter = createSharedLimiter({ url: URL_, apiKey: KEY, fetch, now: clock.now, sleep: clock.sleep, onHostError: (e) => errors.push(e) });
    const log: [string, number][] = [];
    await clock.run(Promise.all(['a', 'b', 'c'].map((who) => call(limiter, clock, log, who))));
    // Each asked with a hold of 15 s; unanswered 10 s after it, each went through this process's own limiter.
    expect(log.map(([, at]) => at)).toEqual([25_000, 25_000, 25_000]);
    expect(errors.map((e) => e.message)).toEqual(Array(3).fill('The limiter host at http://limiter.test/pace/ did not answer turn within 25 s'));
    // retryHostMs (5 s) on, the host is suspect: one call tries it, the others do not wait on it.
    await clock.advance(5_000);
    await clock.run(Promise.all(['d', 'e', 'f'].map((who) => call(limiter, clock, log, who))));
    expect(log.slice(3).map(([, at]) => at).sort()).toEqual([30_000, 30_000, 55_000]);
    expect(asked).toHaveLength(4);
  });

  it('a host that answers queued at once is asked at most every 100 ms, until the call\'s signal ends the wait', async () => {
    const clock = manualClock(0);
    let asks = 0;
    const fetch = (async () => {
      asks += 1;
      return new Response('{"queued":true}', { status: 202 });
    }) as unknown as typeof globalThis.fetch;
    const limiter = createSharedLimiter({ url: URL_, apiKey: KEY, fetch, now: clock.now, sleep: clock.sleep });
    const controller = new AbortController();
    const waiting = expect(limiter.schedule(async () => ({ outcome: 'success' as const }), controller.signal)).rejects.toThrow('gave up');
    while (asks === 0) await new Promise((resolve) => setTimeout(resolve, 1)); // the key's hash (Web Crypto) first
    await clock.advance(1_000);
    controller.abort(new Error('gave up'));
    await waiting;
    expect(asks).toBe(11); // at 0, 100, … 1,000 ms
  });

  it('an outcome report the host never answers ends within 10 s: the call returns, and the host is held down', async () => {
    const clock = manualClock(0);
    const host = createLimiterHost({ now: clock.now, sleep: clock.sleep });
    const fetch = (async (input: URL, init: RequestInit) => {
      if (!new URL(input).pathname.endsWith('/outcome')) return host.fetch(new Request(input, init));
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }) as unknown as typeof globalThis.fetch;
    const errors: Error[] = [];
    const limiter = createSharedLimiter({ url: URL_, apiKey: KEY, fetch, now: clock.now, sleep: clock.sleep, onHostError: (e) => errors.push(e) });
    const result = await clock.run(limiter.schedule(async () => ({ outcome: 'throttled' as const })));
    expect([result.outcome, clock.now()]).toEqual(['throttled', 10_000]);
    expect(errors.map((e) => e.message)).toEqual(['The limiter host at http://limiter.test/pace/ did not answer outcome within 10 s']);
  });

  it('a host that refuses (wrong token) says why, without the token, and calls still go', async () => {
    const { clock, make, run } = setup({}, { token: 'right-token' });
    const errors: Error[] = [];
    const limiter = make({ token: 'wrong-token', onHostError: (e) => errors.push(e) });
    const log: [string, number][] = [];
    await run(call(limiter, clock, log, 'a'));
    expect(log).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/answered 401 to turn: missing or wrong bearer token/);
    expect(errors[0]!.message).not.toMatch(/right-token|wrong-token/);
  });

  it('a host that answers in a shape it does not know is a host error too, and calls still go', async () => {
    const clock = manualClock(0);
    const errors: Error[] = [];
    const fetch = (async () => new Response('{"granted":true}', { status: 200 })) as unknown as typeof globalThis.fetch;
    const limiter = createSharedLimiter({ url: URL_, apiKey: KEY, fetch, now: clock.now, sleep: clock.sleep, onHostError: (e) => errors.push(e) });
    const log: [string, number][] = [];
    await clock.run(call(limiter, clock, log, 'a'));
    expect(log).toHaveLength(1);
    expect(errors.map((e) => e.message)).toEqual(['The limiter host at http://limiter.test/pace/ answered turn in a shape this client does not know (another version?)']);
  });

  it('a call that outlasts the host\'s lease is told, and the host is not held to be down for it', async () => {
    const { clock, make, run, net } = setup({}, { leaseMs: 1000 });
    const errors: Error[] = [];
    const limiter = make({ onHostError: (e) => errors.push(e) });
    await run(limiter.schedule(async () => {
      await clock.sleep(1500);
      return { outcome: 'server-error' as const };
    }));
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/answered 404 to outcome: unknown or expired lease/)]);
    await run(call(limiter, clock, [], 'next'));
    expect(net.sent.map((s) => s.route)).toEqual(['/pace/turn', '/pace/outcome', '/pace/turn', '/pace/outcome']);
  });

  it('refuses a url that is not http(s) and an empty apiKey, before anything is sent', () => {
    expect(() => createSharedLimiter({ url: 'ftp://h/', apiKey: KEY })).toThrow(/must be http or https/);
    expect(() => createSharedLimiter({ url: 'not a url', apiKey: KEY })).toThrow(/not a URL/);
    expect(() => createSharedLimiter({ url: 'http://user:pw@h/', apiKey: KEY })).toThrow(/credentials/);
    expect(() => createSharedLimiter({ url: URL_, apiKey: '' })).toThrow(/needs the apiKey/);
  });
});
