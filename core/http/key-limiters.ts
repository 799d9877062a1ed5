/**
 * The client's default limiter: one per API key in the process, so every client of a key shares its pause and its
 * learned rate, including clients loaded from the ESM and the CommonJS build of this package (each build has its
 * own module state, so the registry lives on `globalThis` under a `Symbol.for` key both can find).
 *
 * Only the ky client driver imports this file: the limiter itself (`rate-limiter.ts`) uses no globals or timers.
 * A client with its own `now` or `sleep` gets a limiter of its own on that clock (state kept in one clock's time
 * means nothing in another's); clients that should share one pass the same `limiter` to `createClient`.
 */
import { fingerprint } from '../hash.ts';
import { defaultNow, defaultSleep } from '../runtime.ts';
import { createLimiter, createSharedPause, type FixedRateLimit, type Limiter, type SharedPause } from './rate-limiter.ts';

export type { Limiter, Outcome } from './rate-limiter.ts';

/** Limiters of one API key: one per stated rate, all sharing the key's pause. */
interface KeyLimiters {
  pause: SharedPause;
  byRate: Map<string, Limiter>;
}

const REGISTRY = Symbol.for('partner-learning-client.limiters');

function registry(): Map<string, KeyLimiters> {
  const holder = globalThis as { [REGISTRY]?: Map<string, KeyLimiters> };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** What {@link limiterFor} needs (a subset of the normalized client options). */
export interface LimiterFor {
  apiKey: string;
  rateLimit: FixedRateLimit | 'adaptive';
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The limiter the user passed to `createClient`, if any: used as is. */
  limiter?: Limiter | undefined;
}

/**
 * The limiter a client uses: the one it was given, else the process-wide one of its API key (on the runtime's
 * clock), else (a client with its own `now` or `sleep`) a new one on that clock.
 *
 * @param init API key (hashed before use), rate, clock, sleep and the injected limiter.
 * @returns A {@link Limiter}.
 * @example
 * const limiter = limiterFor(normalizedOptions);
 */
export function limiterFor(init: LimiterFor): Limiter {
  if (init.limiter) return init.limiter;
  const { rateLimit, now, sleep } = init;
  if (now !== defaultNow || sleep !== defaultSleep) return createLimiter({ now, sleep, rateLimit });
  const id = fingerprint(init.apiKey);
  const keys = registry();
  let key = keys.get(id);
  if (!key) {
    key = { pause: createSharedPause(), byRate: new Map() };
    keys.set(id, key);
  }
  const rateId = rateLimit === 'adaptive' ? rateLimit : `${rateLimit.requestsPerSecond}/${rateLimit.burst}`;
  let limiter = key.byRate.get(rateId);
  if (!limiter) {
    limiter = createLimiter({ now, sleep, rateLimit }, key.pause);
    key.byRate.set(rateId, limiter);
  }
  return limiter;
}
