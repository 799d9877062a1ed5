/**
 * `POST /v1/learner-tokens` (backend only): `{"userId", "ttlSeconds"?}` → 201 `{"token", "userId", "expiresAt"}`.
 * The learner must be the partner's (else 404, from the service) and active (else 403 `inactive_learner`).
 */
import { learnerTokenBodySchema } from './inputs.ts';
import { DEFAULT_TTL_SECONDS } from './learner-token.ts';
import { problem, type ProblemViolation } from './problem.ts';
import type { RunContext } from './route-types.ts';

/**
 * @param ctx The checked request (body parsed as JSON).
 * @returns 201 with the token, or a problem.
 */
export async function learnerTokenRequest(ctx: RunContext): Promise<Response> {
  const checked = learnerTokenBodySchema.safeParse(ctx.body ?? {});
  if (!checked.success) {
    const violations: ProblemViolation[] = checked.error.issues.map((issue) => ({ propertyPath: issue.path.join('.'), message: issue.message }));
    return problem(400, 'validation_failed', { detail: 'The request is invalid: see violations.', violations });
  }
  const { userId, ttlSeconds } = checked.data;
  // The service says whether the learner is the partner's (404 otherwise); its profile says whether they are active.
  const user = await ctx.client.users.get(userId, ctx.capture.options);
  if (user.status !== 'active') {
    return problem(403, 'inactive_learner', { detail: 'The learner is deactivated: reactivate them before minting a token.' });
  }
  const minted = await ctx.mintToken(userId, ttlSeconds ?? DEFAULT_TTL_SECONDS);
  return new Response(JSON.stringify(minted), { status: 201, headers: { 'content-type': 'application/json' } });
}
