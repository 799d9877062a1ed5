/**
 * What a shared limiter (`shared-limiter.ts`) and the limiter host (`limiter-host.ts`) say to each other: three JSON
 * requests, each a POST. The host runs the one limiter of a key (`limiter.ts`, unchanged) for every process that
 * uses the key, so their calls are paced as one process's callers are.
 *
 * - `turn`: wait in the key's line; answered when this call may go, with a lease id.
 * - `outcome`: how the call that held the lease ended; answered with the key's pause and failure streak, which the
 *   retry loop reads next.
 * - `pause`: the retry loop paused the key (a 5xx streak, a Retry-After).
 *
 * Keys travel as the SHA-256 of the API key, never the key itself.
 */
import { z } from 'zod';

/** The SHA-256 of an API key, as 64 lower-case hex characters. */
const keyHash = z.string().regex(/^[0-9a-f]{64}$/, 'key must be the SHA-256 of the API key, 64 lower-case hex characters');

/** A configured rate (a ceiling), or the default. */
const rate = z.union([
  z.literal('adaptive'),
  z.object({ requestsPerSecond: z.number().positive().max(10_000), burst: z.number().int().min(1).max(10_000) }).strict(),
]);

export const TurnRequest = z.object({ key: keyHash, rate: rate.default('adaptive') }).strict();
export type TurnRequest = z.output<typeof TurnRequest>;

export const TurnAnswer = z.object({ lease: z.string().min(1).max(64) });

const outcome = z.enum(['success', 'throttled', 'server-error', 'other', 'no-answer', 'not-sent']);

export const OutcomeRequest = z.object({ lease: z.string().min(1).max(64), outcome }).strict();
export type OutcomeRequest = z.infer<typeof OutcomeRequest>;

/** The key's state after an outcome or a pause, as the retry loop reads it. */
export const KeyState = z.object({ pauseRemainingMs: z.number().min(0), failureStreak: z.number().int().min(0) });
export type KeyState = z.infer<typeof KeyState>;

export const PauseRequest = z.object({ key: keyHash, rate: rate.default('adaptive'), ms: z.number().min(0).max(3_600_000) }).strict();
export type PauseRequest = z.output<typeof PauseRequest>;

/** The host's routes, under the URL the shared limiter is given. */
export const ROUTES = { turn: 'turn', outcome: 'outcome', pause: 'pause' } as const;
