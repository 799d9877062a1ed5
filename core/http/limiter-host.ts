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
 * when a call may go and hears how it ended. A wait for a turn may be long (a batch on a slow plan), longer than a
 * proxy in front of the host lets a request wait, so a turn that carries a ticket is held at most `holdMs` and asked
 * again, keeping its place (`join` makes the place, `turn` waits on it).
 */
import { defaultNow, defaultSleep } from '../runtime.ts';
import { sha256Bytes } from '../hash.ts';
import { createLimiter, type Limiter, type Outcome } from './limiter.ts';
import { OutcomeRequest, PauseRequest, TurnRequest, type KeyState } from './limiter-wire.ts';
import { BodyTooLargeError, readText } from './read-body.ts';

/** Every request of the wire is a few hundred bytes. */
const MAX_BODY_BYTES = 4096;
/**
 * How long a place in line is kept for a caller with a ticket once its ask was answered `queued`: it asks again at
 * once, so this only has to cover a round trip and a reconnect. A caller that does not come back (its call was
 * aborted between asks, its process died) gives up its place then, or its lease as not sent. (An ask that goes
 * while held gives up its place at once: the caller aborted, or a proxy cut it and the caller paces alone.)
 */
const RETURN_MS = 5_000;

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
  /**
   * How long a turn that carries a ticket (every `createSharedLimiter` sends one) is held before the host answers
   * `202 { queued: true }` and the caller asks again, keeping its place in line (ms, default 20,000). Keep it under
   * the read timeout of any proxy between the processes and the host (nginx's `proxy_read_timeout` is 60 s, an AWS
   * load balancer's idle timeout 60 s), or long waits in line are cut there and the process paces alone for a while.
   */
  holdMs?: number;
}

/**
 * A fetch handler: serve it at any path; the routes are its last segment (`…/turn`, `…/outcome`, `…/pause`, and
 * `GET …/health`).
 */
export interface LimiterHost {
  fetch(request: Request): Promise<Response>;
}

/** A caller's place in the key's line (see `join`). */
interface Place {
  /** Settles with the lease once the call may go. */
  granted: Promise<string>;
  /** Settles once the limiter let the place go (given up in line) or learnt from its lease. */
  left: Promise<void>;
  /** Gives up the place: out of the line, or a lease granted and not picked up ends as not sent. */
  leave: () => void;
  /** While no ask waits on a ticket's place: the timer that gives it up (see RETURN_MS). */
  away?: AbortController;
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
  const holdMs = options.holdMs ?? 20_000;
  if (!(holdMs > 0)) throw new RangeError(`holdMs must be a positive number of milliseconds (got ${String(holdMs)})`);
  const tokenHash = options.token === undefined ? undefined : sha256Bytes(options.token);
  const limiters = new Map<string, Limiter>();
  const leases = new Map<string, Lease>();
  /** Places in line of callers with a ticket, by limiter and ticket. */
  const places = new Map<string, Place>();

  const limiterIdOf = (body: Pick<TurnRequest, 'key' | 'rate'>): string =>
    `${body.key}:${body.rate === 'adaptive' ? body.rate : `${body.rate.requestsPerSecond}/${body.rate.burst}`}`;
  const limiterOf = (body: Pick<TurnRequest, 'key' | 'rate'>): Limiter => {
    const id = limiterIdOf(body);
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = createLimiter({ now, sleep, rateLimit: body.rate });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  const stateOf = (limiter: Limiter): KeyState => ({ pauseRemainingMs: limiter.pauseRemaining(), failureStreak: limiter.failureStreak });

  /**
   * Joins the key's line: `granted` settles with a lease when the call may go, `left` once the place is given up
   * (`leave`) before that. A lease granted after its caller left ends at once as not sent.
   */
  const join = (limiter: Limiter): Place => {
    const leave = new AbortController();
    let lease: string | undefined;
    let granted!: (lease: string) => void;
    const grant = new Promise<string>((resolve) => { granted = resolve; });
    const learnt: Promise<unknown> = limiter.schedule(async () => {
      const id = crypto.randomUUID();
      const expiry = new AbortController();
      const outcome = new Promise<Outcome>((resolve) => {
        const end = (value: Outcome, expired = false): void => {
          if (!leases.delete(id)) return;
          if (!expired) expiry.abort(); // a reported lease's expiry timer goes (not one that already fired)
          resolve(value);
        };
        leases.set(id, { end, learnt, limiter });
        sleep(leaseMs, expiry.signal).then(() => end('no-answer', true), () => undefined);
      });
      lease = id;
      if (leave.signal.aborted) leases.get(id)?.end('not-sent'); // the caller left just as its turn came
      else granted(id);
      return { outcome: await outcome };
    }, leave.signal);
    return {
      granted: grant,
      // The limiter let a caller that left while in line go (rejected), or learnt from the lease.
      left: learnt.then(() => undefined, () => undefined),
      leave: () => {
        leave.abort();
        if (lease !== undefined) leases.get(lease)?.end('not-sent');
      },
    };
  };

  /**
   * Waits for the key's turn; answers with a lease the caller reports its outcome under. With a ticket, at most
   * `holdMs`: then `202 { queued: true }`, and the place is kept {@link RETURN_MS} for the caller to ask again.
   */
  const turn = async (body: TurnRequest, gone: AbortSignal): Promise<Response> => {
    const limiter = limiterOf(body);
    const id = body.ticket === undefined ? undefined : `${limiterIdOf(body)}:${body.ticket}`;
    let place = id === undefined ? undefined : places.get(id);
    if (!place) {
      const joined = join(limiter);
      place = joined;
      if (id !== undefined) {
        places.set(id, joined);
        void joined.left.then(() => { if (places.get(id) === joined) places.delete(id); });
      }
    }
    place.away?.abort(); // asked again in time
    const waited = await waitForTurn(place, id === undefined ? undefined : Math.min(holdMs, body.holdMs ?? holdMs), gone);
    if (waited === 'left') return refuse(499, 'the caller left before its turn');
    if (typeof waited === 'object') {
      if (id !== undefined) places.delete(id);
      return json({ lease: waited.lease });
    }
    if (waited === 'gone' || id === undefined) {
      // The caller aborted, or a proxy cut the ask (a shared limiter then paces alone a while): the place goes.
      if (id !== undefined) places.delete(id);
      place.leave();
      return refuse(499, 'the caller left before its turn');
    }
    keepAWhile(place, id);
    return json({ queued: true }, 202);
  };

  /** Gives up a ticket's place {@link RETURN_MS} from now, unless the caller asks again before (`turn` stops it). */
  const keepAWhile = (place: Place, id: string): void => {
    const away = new AbortController();
    place.away = away;
    sleep(RETURN_MS, away.signal).then(() => {
      if (places.get(id) !== place) return; // an ask on the ticket took the lease meanwhile
      places.delete(id);
      place.leave();
    }, () => undefined);
  };

  /** What ends a wait for the turn: the lease, the hold's end, the request gone, or the place given up. */
  const waitForTurn = async (place: Place, hold: number | undefined, gone: AbortSignal): Promise<{ lease: string } | 'held' | 'gone' | 'left'> => {
    const stop = new AbortController();
    const ends: Promise<{ lease: string } | 'held' | 'gone' | 'left'>[] = [
      place.granted.then((lease) => ({ lease })),
      place.left.then(() => 'left' as const),
      // Listened to only while waiting: some servers abort a request's signal once its answer is out.
      new Promise((resolve) => {
        if (gone.aborted) resolve('gone');
        const onGone = () => resolve('gone');
        gone.addEventListener('abort', onGone, { once: true });
        stop.signal.addEventListener('abort', () => gone.removeEventListener('abort', onGone), { once: true });
      }),
    ];
    if (hold !== undefined) ends.push(sleep(hold, stop.signal).then(() => 'held' as const, () => 'held' as const));
    try {
      return await Promise.race(ends);
    } finally {
      stop.abort();
    }
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
    // For a load balancer's or orchestrator's health check, which carries no token: says nothing about any key.
    if (route === 'health' && (request.method === 'GET' || request.method === 'HEAD')) return json({ status: 'ok' });
    if (route !== 'turn' && route !== 'outcome' && route !== 'pause') return refuse(404, 'unknown route: use POST …/turn, …/outcome or …/pause (GET …/health for a health check)');
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
