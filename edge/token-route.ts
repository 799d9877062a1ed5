/**
 * `POST /v1/learner-tokens` (backend only): `{"userId", "ttlSeconds"?}` → 201 `{"token", "userId", "expiresAt"}`.
 * The learner must be the partner's (else 404, from the service) and active (else 403 `inactive_learner`).
 */
import { uuidSchema } from '../core/protocol.ts';
import { DEFAULT_TTL_SECONDS, MAX_LIFETIME_SECONDS, MIN_TTL_SECONDS } from './learner-token.ts';
import { problem, type ProblemViolation } from './problem.ts';
import type { RunContext } from './route-types.ts';

/**
 * @param ctx The checked request (body parsed as JSON).
 * @returns 201 with the token, or a problem.
 */
export async function learnerTokenRequest(ctx: RunContext): Promise<Response> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const violations: ProblemViolation[] = [];
  if (typeof body !== 'object' || Array.isArray(body)) {
    violations.push({ propertyPath: '', message: 'The body must be a JSON object {"userId", "ttlSeconds"?}.' });
  } else {
    if (!uuidSchema.safeParse(body['userId']).success) {
      violations.push({ propertyPath: 'userId', message: "Must be the learner's 36-character UUID." });
    }
    const ttl = body['ttlSeconds'];
    if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < MIN_TTL_SECONDS || ttl > MAX_LIFETIME_SECONDS)) {
      violations.push({ propertyPath: 'ttlSeconds', message: `Must be a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_LIFETIME_SECONDS}.` });
    }
  }
  if (violations.length > 0) {
    return problem(400, 'validation_failed', { detail: 'The request is invalid: see violations.', violations });
  }
  const userId = body['userId'] as string;
  // The service says whether the learner is the partner's (404 otherwise); its profile says whether they are active.
  const user = await ctx.client.users.get(userId, ctx.capture.options);
  if (user.status !== 'active') {
    return problem(403, 'inactive_learner', { detail: 'The learner is deactivated: reactivate them before minting a token.' });
  }
  const minted = await ctx.mintToken(userId, (body['ttlSeconds'] as number | undefined) ?? DEFAULT_TTL_SECONDS);
  return new Response(JSON.stringify(minted), { status: 201, headers: { 'content-type': 'application/json' } });
}
