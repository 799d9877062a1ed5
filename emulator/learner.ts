import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, EmulatorContext } from './context.ts';
import { hydraError } from './hydra.ts';
import { UUID_PATTERN } from './queries.ts';
import type { User } from './types.ts';

/**
 * Resolves the `X-User-ID` learner of a user-scoped request. Checked before the addressed resource, in this order:
 * missing -> 400 (names the header); not a 36-character UUID -> 400; not registered by this partner in this
 * environment (or erased) -> 404; inactive -> 403 saying the user is inactive.
 * @returns the learner, or the error response.
 */
export function requireLearner(ctx: EmulatorContext, c: Context<AppEnv>): User | Response {
  const raw = c.req.header('x-user-id');
  if (raw === undefined || raw.trim() === '') return hydraError(400, 'The "X-User-ID" header is required for this operation.');
  const uuid = raw.trim();
  if (uuid.length !== 36 || !UUID_PATTERN.test(uuid)) return hydraError(400, 'The "X-User-ID" header must be a 36-character UUID.');
  const user = findUser(ctx, c, uuid);
  if (!user) return hydraError(404, 'User not found.');
  if (user.status !== 'active') return hydraError(403, 'The user is inactive: user-scoped operations are rejected until the user is reactivated.');
  return user;
}

/**
 * Middleware for the user-scoped routes: resolves the `X-User-ID` learner ({@link requireLearner}) and sets
 * `c.var.learner`, or answers the 400/403/404 itself. Given per route (not `app.use`), so a method a path does not
 * take still gets its 405 rather than a learner check.
 * @param ctx the emulator context.
 * @returns the middleware.
 */
export function learnerRequired(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const learner = requireLearner(ctx, c);
    if (learner instanceof Response) return learner;
    c.set('learner', learner);
    await next();
  };
}

/**
 * @returns the calling partner's learner with that uuid in the request's environment, or undefined.
 */
export function findUser(ctx: EmulatorContext, c: Context<AppEnv>, uuid: string): User | undefined {
  const user = ctx.state.envs[c.get('env')].users.get(uuid.toLowerCase());
  return user && user.partnerId === c.get('partnerId') ? user : undefined;
}
