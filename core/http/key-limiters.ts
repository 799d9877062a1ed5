/**
 * The client's default limiter: one per API key in the process, so every client of a key shares its line, its
 * pause and its learned pace, including clients loaded from the ESM and the CommonJS build of this package (each
 * build has its own module state, so the registry lives on `globalThis` under a `Symbol.for` key both can find).
 * A client that states a rate gets the key's limiter for that rate: a configured rate's burst goes at once, which a
 * client with the default must not inherit.
 *
 * Only the ky client driver imports this file: the limiter itself (`limiter.ts`) uses no globals or timers.
 * A client with its own `now` or `sleep` gets a limiter of its own on that clock (state kept in one clock's time
 * means nothing in another's); clients that should share one pass the same `limiter` to `createClient`.
 */
import { fingerprint } from '../hash.ts';
import { defaultNow, defaultSleep, isCloudflareWorkers } from '../runtime.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import type { Ceiling } from './ceiling.ts';

export type { Limiter, Outcome } from './limiter.ts';

const REGISTRY = Symbol.for('partner-learning-client.key-limiters');

function registry(): Map<string, Limiter> {
  const holder = globalThis as { [REGISTRY]?: Map<string, Limiter> };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** What {@link limiterFor} needs (a subset of the normalized client options). */
export interface LimiterFor {
  apiKey: string;
  rateLimit: Ceiling | 'adaptive';
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
  // Inside workerd a caller waiting in line keeps a timer of its own (see LimiterOptions.keepAliveMs).
  const keepAliveMs = isCloudflareWorkers() ? 100 : 0;
  if (now !== defaultNow || sleep !== defaultSleep) return createLimiter({ now, sleep, rateLimit, keepAliveMs });
  const rateId = rateLimit === 'adaptive' ? rateLimit : `${rateLimit.requestsPerSecond}/${rateLimit.burst}`;
  const id = `${fingerprint(init.apiKey)}:${rateId}`;
  const limiters = registry();
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = createLimiter({ now, sleep, rateLimit, keepAliveMs });
    limiters.set(id, limiter);
  }
  return limiter;
}
