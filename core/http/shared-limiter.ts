/**
 * A limiter whose line and pace live in a limiter host (`limiter-host.ts`), shared with every other process that
 * uses the same API key and host: opt-in coordination for processes that share a usage plan (n8n queue-mode
 * workers, several services of one partner). Pass it to `createClient({ limiter })`.
 *
 * Each call asks the host for its turn (a request answered when the call may go, or after the host's `holdMs` with
 * `queued`, when it asks again and keeps its place), sends, and reports how it ended; a success is reported without
 * waiting (but in workerd, below). While the host cannot be reached, answers too late or refuses, calls go through a
 * limiter of this process (as with no host at all) and the host is tried again after `retryHostMs`, so a host that is
 * down or hangs slows little and fails no call.
 */
import { ConfigurationError } from '../errors/configuration-error.ts';
import { sha256Hex } from '../hash.ts';
import { defaultNow, defaultSleep, isCloudflareWorkers } from '../runtime.ts';
import { abortReason } from '../signal.ts';
import { createLimiter, type Limiter, type Outcome } from './limiter.ts';
import { KeyState, ROUTES, TurnAnswer } from './limiter-wire.ts';
import { rateLimitOf, type RateLimitOptions } from './rate-limit.ts';

/** What {@link createSharedLimiter} takes. */
export interface SharedLimiterOptions {
  /** Where the limiter host is served (its routes are `turn`, `outcome` and `pause` under this URL). */
  url: string | URL;
  /** The API key whose line this is: only its SHA-256 is sent to the host. */
  apiKey: string;
  /** The host's bearer token, if it has one. */
  token?: string;
  /** A configured rate (a ceiling), as `createClient`'s `rateLimit` (a burst left out is one second's worth); default `'adaptive'`. */
  rateLimit?: RateLimitOptions | 'adaptive';
  /** How to reach the host (default the global `fetch`). */
  fetch?: typeof fetch;
  /** After the host failed, how long calls use this process's own limiter before it is tried again (ms, default 5,000). */
  retryHostMs?: number;
  /** Told each time the host could not be reached or refused a request (the error names the host, never the token). */
  onHostError?: (error: Error) => void;
  /** The clock, epoch ms (default `Date.now`). */
  now?: () => number;
  /** Resolves after `ms` (default: a timer). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Each ask for a turn asks the host to answer within this (ms; the host holds the less of it and its `holdMs`). */
const ASK_HOLD_MS = 15_000;
/** The least time between two asks for one turn (ms). */
const MIN_ASK_MS = 100;
/**
 * A request to the host not answered this long after it may be (ms; an ask's hold, or at once) is a host failure, as
 * a refused connection is: the process paces alone for `retryHostMs`. A host that hangs (accepts and never answers)
 * would otherwise hold each call until its deadline, and an outcome report, which no call's signal bounds, for ever.
 */
const ANSWER_MS = 10_000;

/** The host could not be reached, or refused a request (`status`: its answer's, when it answered). */
class HostError extends Error {
  override readonly name = 'LimiterHostError';
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/**
 * Creates a limiter that shares its line and pace with every process using the same host and API key.
 *
 * @param options The host's URL, the API key, and optionally its token, a rate, `fetch` and a clock.
 * @returns A {@link Limiter} for `createClient({ limiter })`.
 * @throws {ConfigurationError} When `url` is not an http(s) URL or `apiKey` is empty.
 * @example
 * const limiter = createSharedLimiter({ url: 'http://limiter.internal:4020/', apiKey: process.env.PL_API_KEY! });
 * const client = createClient({ ...options, limiter });
 */
export function createSharedLimiter(options: SharedLimiterOptions): Limiter {
  return sharedLimiterOn(options, {
    now: options.now ?? defaultNow,
    sleep: options.sleep ?? defaultSleep,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    inWorkerd: isCloudflareWorkers(),
  });
}

/** The runtime a shared limiter runs on: what {@link createSharedLimiter} takes from the runtime by default. */
export interface SharedLimiterRuntime {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How to reach the host: the global `fetch`, or a driver's (n8n's HTTP helper). */
  fetch: (input: URL, init: RequestInit) => Promise<Response>;
  /**
   * Inside workerd a caller waiting in the local line keeps a timer of its own (LimiterOptions.keepAliveMs), and a
   * success is reported before the call returns: a subrequest left running when its request ends is cancelled, and
   * an unreported lease would hold its place in the host's window until it expires.
   */
  inWorkerd: boolean;
}

/**
 * {@link createSharedLimiter} on a runtime the driver gives: no default clock, timer or global here, so the n8n
 * bundle (which may use none, see `core/protocol.ts`) can share a line through n8n's own HTTP helper.
 *
 * @param options As {@link createSharedLimiter}'s (its `now`, `sleep` and `fetch` are ignored: `runtime` has them).
 * @param runtime Clock, sleep, fetch, and whether this is workerd.
 * @returns A {@link Limiter}.
 * @throws {ConfigurationError} When `url` is not an http(s) URL or `apiKey` is empty.
 */
export function sharedLimiterOn(options: SharedLimiterOptions, runtime: SharedLimiterRuntime): Limiter {
  const base = hostUrl(options.url);
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    throw new ConfigurationError({ origin: 'client', message: 'createSharedLimiter needs the apiKey whose line it shares', hint: 'Pass the same apiKey as to createClient' });
  }
  const { now, sleep, inWorkerd } = runtime;
  const send = runtime.fetch;
  const retryHostMs = options.retryHostMs ?? 5_000;
  const rate = rateLimitOf(options.rateLimit, 'createSharedLimiter');
  const local = createLimiter({ now, sleep, rateLimit: rate, keepAliveMs: inWorkerd ? 100 : 0 });
  const where = `${base.origin}${base.pathname}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  // The hash is awaited once and its value kept: no promise is shared between callers (a Worker forbids that).
  let key: string | undefined;
  let hostDownUntil = 0;
  // After a failure the host is suspect: one call at a time tries it again (the others pace alone meanwhile), so a
  // host that hangs holds up one call per retryHostMs, not every call.
  let suspect = false;
  let probing = false;
  let pausedUntil = 0;
  let failureStreak = 0;

  /** One request to the host, answered (body read) within `holdMs` + {@link ANSWER_MS}, or a {@link HostError}. */
  const post = async (route: string, body: unknown, signal?: AbortSignal, holdMs = 0): Promise<unknown> => {
    const limit = holdMs + ANSWER_MS;
    const late = new AbortController();
    const answered = new AbortController();
    // On the runtime's sleep (no timer of this module's own: the n8n bundle may have none). n8n's cannot be cancelled:
    // there it runs out after the answer, and aborting `late` then changes nothing.
    sleep(limit, answered.signal).then(() => late.abort(), () => undefined);
    const both = signal ? AbortSignal.any([signal, late.signal]) : late.signal;
    let text: string;
    let response: Response;
    try {
      response = await send(new URL(route, base), { method: 'POST', headers, body: JSON.stringify(body), signal: both, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (late.signal.aborted) throw new HostError(`The limiter host at ${where} did not answer ${route} within ${limit / 1000} s`);
      throw new HostError(`The limiter host at ${where} could not be reached (${error instanceof Error ? error.message : String(error)})`);
    } finally {
      answered.abort();
    }
    if (!response.ok) {
      let said = '';
      try {
        said = String((JSON.parse(text) as { error?: unknown }).error ?? '');
      } catch { /* not JSON: the status says enough */ }
      throw new HostError(`The limiter host at ${where} answered ${response.status} to ${route}${said ? `: ${said}` : ''}`, response.status);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new HostError(`The limiter host at ${where} answered ${route} with a body that is not JSON`);
    }
  };
  const hostFailed = (error: unknown): void => {
    hostDownUntil = now() + retryHostMs;
    suspect = true;
    options.onHostError?.(error instanceof HostError ? error : new HostError(`The limiter host at ${where} failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  /** The host's answer in the shape the wire says, or a {@link HostError} naming the route. */
  const shaped = <T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, route: string, body: unknown): T => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new HostError(`The limiter host at ${where} answered ${route} in a shape this client does not know (another version?)`);
    return parsed.data;
  };
  const mirror = (state: KeyState): void => {
    failureStreak = state.failureStreak;
    pausedUntil = Math.max(pausedUntil, now() + state.pauseRemainingMs);
  };
  const report = async (lease: string, outcome: Outcome): Promise<void> => {
    try {
      mirror(shaped(KeyState, ROUTES.outcome, await post(ROUTES.outcome, { lease, outcome })));
    } catch (error) {
      // A lease the host no longer knows (the call outlasted its leaseMs) says nothing against the host: told, not
      // held against it. Otherwise the host counts the lease as unanswered at its expiry.
      if (error instanceof HostError && error.status === 404) options.onHostError?.(error);
      else hostFailed(error);
    }
  };

  /**
   * Asks for this call's turn until the host grants it: the host holds each ask at most its `holdMs` and then answers
   * `queued`, and the ticket (the same on every ask) keeps the call's place in line meanwhile, so no request to the
   * host outlives a proxy's read timeout.
   */
  const turn = async (hash: string, signal: AbortSignal | undefined): Promise<string> => {
    const ticket = crypto.randomUUID();
    for (;;) {
      const asked = now();
      const answer = shaped(TurnAnswer, ROUTES.turn, await post(ROUTES.turn, { key: hash, rate, ticket, holdMs: ASK_HOLD_MS }, signal, ASK_HOLD_MS));
      if ('lease' in answer) return answer.lease;
      // A host that answers `queued` at once (a hold set very short, or a fault) is asked at most every MIN_ASK_MS.
      const early = MIN_ASK_MS - (now() - asked);
      if (early > 0) await sleep(early, signal);
    }
  };

  const limiter: Limiter = {
    schedule: async (call, signal) => {
      if (signal?.aborted) throw abortReason(signal);
      if (now() < hostDownUntil || probing) return local.schedule(call, signal);
      const probe = suspect;
      if (probe) probing = true;
      let lease: string;
      try {
        key ??= await sha256Hex(options.apiKey);
        lease = await turn(key, signal);
        suspect = false;
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        hostFailed(error);
        return local.schedule(call, signal);
      } finally {
        if (probe) probing = false;
      }
      let result;
      try {
        result = await call();
      } catch (error) {
        await report(lease, 'no-answer');
        throw error;
      }
      if (result.outcome === 'success' && !inWorkerd) {
        failureStreak = 0;
        void report(lease, 'success');
      } else {
        await report(lease, result.outcome);
      }
      return result;
    },
    pause: (ms) => {
      pausedUntil = Math.max(pausedUntil, now() + Math.max(0, ms));
      local.pause(ms);
      if (key === undefined || now() < hostDownUntil) return;
      post(ROUTES.pause, { key, rate, ms: Math.max(0, ms) }).then((state) => mirror(shaped(KeyState, ROUTES.pause, state))).catch(hostFailed);
    },
    wait: (ms, signal) => sleep(ms, signal),
    pauseRemaining: () => Math.max(0, pausedUntil - now()),
    get failureStreak() {
      return now() < hostDownUntil ? local.failureStreak : failureStreak;
    },
  };
  return limiter;
}

function hostUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError({ origin: 'client', message: 'createSharedLimiter: url is not a URL', hint: 'Pass the limiter host\'s http(s) URL, such as http://limiter.internal:4020/' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigurationError({ origin: 'client', message: `createSharedLimiter: url must be http or https (got ${parsed.protocol})`, hint: 'Pass the limiter host\'s http(s) URL' });
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // fetch refuses such a URL, and it would put a secret in every error message that names the host.
    throw new ConfigurationError({ origin: 'client', message: 'createSharedLimiter: url carries credentials', hint: 'Give the host a token (createLimiterHost({ token })) and pass it as token' });
  }
  // Routes resolve under the URL's path: http://h/pace and http://h/pace/ both mean http://h/pace/turn.
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  parsed.search = '';
  parsed.hash = '';
  return parsed;
}
