/**
 * The `rateLimit` option, checked and completed in one place for everything that takes it: `createClient`,
 * `createLimiter` and `createSharedLimiter`. A burst left out is one second's worth of the rate.
 */
import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { Ceiling } from './ceiling.ts';

/** A configured rate with an optional burst; each message names the field to fix. */
const ceilingSchema = z.object({
  requestsPerSecond: z.number().positive('rateLimit.requestsPerSecond must be > 0').max(10_000, 'rateLimit.requestsPerSecond must be at most 10000'),
  burst: z.number().int('rateLimit.burst must be an integer').min(1, 'rateLimit.burst must be at least 1').max(10_000, 'rateLimit.burst must be at most 10000').optional(),
});

/** A usage plan's rate, when known (`rateLimit` of `createClient`, `createLimiter` and `createSharedLimiter`). */
export interface RateLimitOptions {
  /** Steady request rate for this API key's usage plan. */
  requestsPerSecond: number;
  /** Requests allowed at once before the steady rate applies (default: one second's worth). */
  burst?: number;
}

/** `'adaptive'`, or a configured rate. */
export const rateLimitSchema = z.union([z.literal('adaptive'), ceilingSchema], { message: "rateLimit must be 'adaptive' or { requestsPerSecond, burst? }" });

/**
 * @param rate A checked `rateLimit` (see {@link rateLimitSchema}), or none.
 * @returns The ceiling, its burst filled in, or `'adaptive'`.
 */
export function completeRateLimit(rate: RateLimitOptions | 'adaptive' | undefined): Ceiling | 'adaptive' {
  if (rate === undefined || rate === 'adaptive') return 'adaptive';
  return { requestsPerSecond: rate.requestsPerSecond, burst: rate.burst ?? Math.max(1, Math.floor(rate.requestsPerSecond)) };
}

/**
 * Checks a `rateLimit` given to a limiter factory and completes it.
 *
 * @param rate What the caller passed.
 * @param factory The factory's name, for the message.
 * @returns The ceiling, or `'adaptive'`.
 * @throws {ConfigurationError} Naming the field to fix.
 * @example
 * rateLimitOf({ requestsPerSecond: 5 }, 'createLimiter'); // { requestsPerSecond: 5, burst: 5 }
 */
export function rateLimitOf(rate: unknown, factory: string): Ceiling | 'adaptive' {
  if (rate === undefined) return 'adaptive';
  // An object is judged as a rate, so the message names its field rather than the union's two shapes.
  const parsed = (typeof rate === 'object' && rate !== null ? ceilingSchema : rateLimitSchema).safeParse(rate);
  if (!parsed.success) {
    const problems = [...new Set(parsed.error.issues.map((issue) => issue.message))];
    throw new ConfigurationError({ origin: 'client', message: `Invalid ${factory} options: ${problems.join('; ')}`, hint: 'Fix the rateLimit option, or leave it out for the adaptive default' });
  }
  return completeRateLimit(parsed.data);
}
