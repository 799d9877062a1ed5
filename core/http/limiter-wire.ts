/**
 * What a shared limiter (`shared-limiter.ts`) and the limiter host (`limiter-host.ts`) say to each other: three JSON
 * requests, each a POST. The host runs the one limiter of a key (`limiter.ts`, unchanged) for every process that
 * uses the key, so their calls are paced as one process's callers are.
 *
 * - `turn`: wait in the key's line; answered when this call may go, with a lease id. A turn that carries a ticket
 *   (any id the caller makes up, the same on every ask) is held at most the host's `holdMs` and then answered
 *   `202 { queued: true }`: the caller asks again with the same ticket and keeps its place in line, so no request
 *   outlives the read timeout of a proxy between them. A turn with no ticket is held until its turn.
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

/** A caller's place in line, kept across asks; made up by the caller (a UUID). */
const ticket = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'ticket must be 8 to 64 letters, digits, _ or - (a UUID will do)');

export const TurnRequest = z.object({
  key: keyHash,
  rate: rate.default('adaptive'),
  ticket: ticket.optional(),
  /** With a ticket: the longest the caller waits for this answer (ms); the host holds the less of it and its `holdMs`. */
  holdMs: z.number().int().min(100).max(600_000).optional(),
}).strict();
export type TurnRequest = z.output<typeof TurnRequest>;

/** The call may go (report its outcome under `lease`), or, for a ticket, not yet: ask again with the same ticket. */
export const TurnAnswer = z.union([z.object({ lease: z.string().min(1).max(64) }), z.object({ queued: z.literal(true) })]);

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
