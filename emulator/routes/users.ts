import type { Context, Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.ts';
import { hasMediaType, hydraError, jsonLd, readJson, validationFailed } from '../hydra.ts';
import { findUser } from '../learner.ts';
import { UUID_PATTERN } from '../queries.ts';
import { eraseLearner } from '../records.ts';
import { userJson } from '../serialize.ts';
import type { User } from '../types.ts';
import { validatePatch, validateRegistration } from '../user-input.ts';

const P = '/:env/v1/users';
const emailKey = (partnerId: string, email: string) => `${partnerId}|${email.toLowerCase()}`;

async function readObject(c: Context<AppEnv>): Promise<{ body: Record<string, unknown> } | { error: Response }> {
  const parsed = await readJson(c.req.raw);
  if ('error' in parsed) return parsed;
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: hydraError(400, 'The request body must be a JSON object.') };
  return { body: v as Record<string, unknown> };
}

/**
 * Learner profiles: register (idempotent per partner + e-mail), read, merge-patch, erase.
 * A uuid the partner did not register (or erased, or malformed) is 404, never 403.
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerUsers(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  const lookup = (c: Context<AppEnv>): User | undefined => {
    const uuid = c.req.param('uuid') ?? '';
    return UUID_PATTERN.test(uuid) ? findUser(ctx, c, uuid) : undefined;
  };

  app.post(`${P}/register`, async (c) => {
    if (!hasMediaType(c.req.raw, ['application/json', 'application/ld+json'])) {
      return hydraError(415, 'The content-type must be "application/json".');
    }
    const read = await readObject(c);
    if ('error' in read) return read.error;
    const env = c.get('env');
    const data = ctx.state.envs[env];
    const input = validateRegistration(read.body, data.catalog);
    if ('violations' in input) return validationFailed(input.violations);
    const partnerId = c.get('partnerId');
    const email = input.values.email as string;
    const existing = data.users.get(data.emailIndex.get(emailKey(partnerId, email)) ?? '');
    if (existing) return jsonLd(userJson(env, existing), 201);
    let uuid = ctx.state.ids.uuid();
    while (data.users.has(uuid)) uuid = ctx.state.ids.uuid();
    const now = ctx.clock.now();
    const user: User = {
      uuid,
      partnerId,
      email,
      firstName: input.values.firstName as string,
      lastName: input.values.lastName as string,
      organizationId: input.values.organizationId as number,
      countryCode: input.values.countryCode ?? null,
      address: input.values.address ?? null,
      address2: input.values.address2 ?? null,
      city: input.values.city ?? null,
      stateProv: input.values.stateProv ?? null,
      postalCode: input.values.postalCode ?? null,
      phone: input.values.phone ?? null,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    data.users.set(uuid, user);
    data.emailIndex.set(emailKey(partnerId, email), uuid);
    const res = jsonLd(userJson(env, user), 201);
    res.headers.set('content-location', `/${env}/v1/users/${uuid}`);
    return res;
  });

  app.get(`${P}/:uuid`, (c) => {
    const user = lookup(c);
    return user ? jsonLd(userJson(c.get('env'), user)) : hydraError(404, 'User not found.');
  });

  app.patch(`${P}/:uuid`, async (c) => {
    const user = lookup(c);
    if (!user) return hydraError(404, 'User not found.');
    if (!hasMediaType(c.req.raw, ['application/merge-patch+json'])) {
      return hydraError(415, 'The content-type must be "application/merge-patch+json" for PATCH.');
    }
    const read = await readObject(c);
    if ('error' in read) return read.error;
    const env = c.get('env');
    const data = ctx.state.envs[env];
    const input = validatePatch(read.body, data.catalog);
    if ('violations' in input) return validationFailed(input.violations);
    const newEmail = input.values.email;
    if (newEmail !== undefined && newEmail.toLowerCase() !== user.email.toLowerCase()) {
      if (data.emailIndex.has(emailKey(user.partnerId, newEmail))) {
        return validationFailed([{ propertyPath: 'email', message: 'This e-mail address is already registered.' }]);
      }
    }
    let changed = false;
    for (const [field, value] of Object.entries(input.values)) {
      const key = field as keyof typeof input.values;
      if (user[key] !== value) {
        (user as unknown as Record<string, unknown>)[key] = value;
        changed = true;
      }
    }
    if (newEmail !== undefined) {
      for (const [k, v] of data.emailIndex) if (v === user.uuid) data.emailIndex.delete(k);
      data.emailIndex.set(emailKey(user.partnerId, user.email), user.uuid);
    }
    // Only a real change moves updatedAt, so the same body sent twice yields the same record.
    if (changed) user.updatedAt = ctx.clock.now();
    return jsonLd(userJson(env, user));
  });

  app.delete(`${P}/:uuid`, (c) => {
    const user = lookup(c);
    if (!user) return hydraError(404, 'User not found.');
    eraseLearner(ctx.state.envs[c.get('env')], user, ctx.state.ids.uuid(), ctx.clock.now());
    return new Response(null, { status: 204 });
  });
}
