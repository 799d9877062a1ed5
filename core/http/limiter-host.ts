/**
 * The limiter host: one process (or a Durable Object) that runs the limiter of each API key for every process that
 * uses the key, so that processes sharing a usage plan are paced as one process's callers are, in the shape of
 * Bottleneck's Redis clustering. Processes that learn the plan alone collide on slow and one-call plans and cut one
 * another down (the README's "Where it falls short"); in virtual time, the processes of row 7b sharing one limiter
 * meet 197 of its 207 cells where each alone meets 120 (bench/README, row 7t).
 *
 * It is a web-standard `fetch` handler, so it serves from Node (`@hono/node-server`'s `serve`), Deno (`Deno.serve`),
 * Bun, or a Worker. Each process reaches it through `createSharedLimiter` (`shared-limiter.ts`); the wire is in
 * `limiter-wire.ts`. The host never sees an API key (only its SHA-256) nor any request to the service: it only says
 * when a call may go and hears how it ended.
 */
import { defaultNow, defaultSleep } from '../runtime.ts';
import { sha256Bytes } from '../hash.ts';
import { createLimiter, type Limiter, type Outcome } from './limiter.ts';
import { OutcomeRequest, PauseRequest, TurnRequest, type KeyState } from './limiter-wire.ts';
import { BodyTooLargeError, readText } from './read-body.ts';

/** Every request of the wire is a few hundred bytes. */
const MAX_BODY_BYTES = 4096;

/** What {@link createLimiterHost} takes; every field is optional. */
export interface LimiterHostOptions {
  /**
   * When set, every request must carry `Authorization: Bearer <token>` (401 otherwise). Anyone who can reach the
   * host can hold a key's line, so serve it where only your processes reach it, or set a token.
   */
  token?: string;
  /**
   * How long a call that was given its turn may take to report how it ended (ms, default 60,000): after that it
   * counts as unanswered and its place in the window is freed, so a process that died mid-call holds nothing.
   */
  leaseMs?: number;
  /** The clock, epoch ms (default `Date.now`). */
  now?: () => number;
  /** Resolves after `ms`; rejects when the signal aborts (default: a timer). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A fetch handler: serve it at any path; the routes are its last segment (`…/turn`, `…/outcome`, `…/pause`). */
export interface LimiterHost {
  fetch(request: Request): Promise<Response>;
}

/** A call given its turn and not yet reported. */
interface Lease {
  end: (outcome: Outcome) => void;
  /** Settles once the limiter has learnt from the outcome. */
  learnt: Promise<unknown>;
  limiter: Limiter;
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const refuse = (status: number, message: string): Response => json({ error: message }, status);

/**
 * Creates a limiter host.
 *
 * @param options Token, lease, clock.
 * @returns A {@link LimiterHost}: pass its `fetch` to a server.
 * @example
 * import { serve } from '@hono/node-server';
 * const host = createLimiterHost({ token: process.env.LIMITER_TOKEN });
 * serve({ fetch: host.fetch, port: 4020 });
 */
export function createLimiterHost(options: LimiterHostOptions = {}): LimiterHost {
  const now = options.now ?? defaultNow;
  const sleep = options.sleep ?? defaultSleep;
  const leaseMs = options.leaseMs ?? 60_000;
  if (!(leaseMs > 0)) throw new RangeError(`leaseMs must be a positive number of milliseconds (got ${String(leaseMs)})`);
  const tokenHash = options.token === undefined ? undefined : sha256Bytes(options.token);
  const limiters = new Map<string, Limiter>();
  const leases = new Map<string, Lease>();

  const limiterOf = (body: TurnRequest): Limiter => {
    const rate = body.rate === 'adaptive' ? body.rate : `${body.rate.requestsPerSecond}/${body.rate.burst}`;
    const id = `${body.key}:${rate}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = createLimiter({ now, sleep, rateLimit: body.rate });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  const stateOf = (limiter: Limiter): KeyState => ({ pauseRemainingMs: limiter.pauseRemaining(), failureStreak: limiter.failureStreak });

  /** Waits for the key's turn; answers with a lease the caller reports its outcome under. */
  const turn = async (body: TurnRequest, gone: AbortSignal): Promise<Response> => {
    const limiter = limiterOf(body);
    let granted!: (lease: string) => void;
    const grant = new Promise<string>((resolve) => { granted = resolve; });
    const learnt = limiter.schedule(async () => {
      const lease = crypto.randomUUID();
      const expiry = new AbortController();
      const outcome = new Promise<Outcome>((resolve) => {
        const end = (value: Outcome, expired = false): void => {
          if (!leases.delete(lease)) return;
          if (!expired) expiry.abort(); // a reported lease's expiry timer goes (not one that already fired)
          resolve(value);
        };
        leases.set(lease, { end, learnt, limiter });
        sleep(leaseMs, expiry.signal).then(() => end('no-answer', true), () => undefined);
        // The caller left just as its turn came: nothing was sent. (Not a listener for later: some servers abort a
        // request's signal once its answer is out, which would end every lease at once. A lease whose answer was
        // lost ends at its expiry.)
        if (gone.aborted) end('not-sent');
      });
      granted(lease);
      return { outcome: await outcome };
    }, gone);
    learnt.catch(() => undefined); // a caller that left while in line: the limiter already let it go
    const lease = await Promise.race([grant, learnt.then(() => undefined, () => undefined)]);
    return lease === undefined ? refuse(499, 'the caller left before its turn') : json({ lease });
  };

  const authorized = async (request: Request): Promise<boolean> => {
    if (tokenHash === undefined) return true;
    const header = request.headers.get('authorization') ?? '';
    const given = await sha256Bytes(header.startsWith('Bearer ') ? header.slice(7) : '');
    const expected = await tokenHash;
    let differ = 0;
    for (let i = 0; i < expected.length; i++) differ |= (expected[i] ?? 0) ^ (given[i] ?? 0);
    return differ === 0;
  };

  const fetch = async (request: Request): Promise<Response> => {
    const route = new URL(request.url).pathname.split('/').pop();
    if (route !== 'turn' && route !== 'outcome' && route !== 'pause') return refuse(404, 'unknown route: use POST …/turn, …/outcome or …/pause');
    if (request.method !== 'POST') return refuse(405, `${route} takes POST`);
    if (!(await authorized(request))) return refuse(401, 'missing or wrong bearer token: pass the host\'s token to createSharedLimiter');
    let raw: unknown;
    try {
      raw = JSON.parse(await readText(request, { maxBytes: MAX_BODY_BYTES }));
    } catch (error) {
      if (error instanceof BodyTooLargeError) return refuse(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
      return refuse(400, 'the body is not JSON');
    }
    const schema = route === 'turn' ? TurnRequest : route === 'outcome' ? OutcomeRequest : PauseRequest;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return refuse(400, `bad ${route} request: ${issues}`);
    }
    if (route === 'turn') return turn(parsed.data as TurnRequest, request.signal);
    if (route === 'pause') {
      const body = parsed.data as PauseRequest;
      const limiter = limiterOf(body);
      limiter.pause(body.ms);
      return json(stateOf(limiter));
    }
    const body = parsed.data as OutcomeRequest;
    const lease = leases.get(body.lease);
    if (!lease) return refuse(404, 'unknown or expired lease: the call took longer than the host\'s leaseMs to report, or was reported already');
    lease.end(body.outcome);
    await lease.learnt.catch(() => undefined);
    return json(stateOf(lease.limiter));
  };
  return { fetch };
}
