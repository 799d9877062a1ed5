import type { Context, Hono, MiddlewareHandler } from 'hono';
import { iso } from './clock.ts';
import type { AppEnv, EmulatorContext } from './context.ts';
import { noFaults, parseFaults } from './faults.ts';
import { json } from './hydra.ts';
import { partnersInfo } from './partners.ts';
import { changeCourse, changeModule, courseView, parseCatalogChange } from './catalog-edit.ts';
import { findReachableModule, parseId } from './queries.ts';
import { addBulkTranscripts, completeModule, findProgress } from './records.ts';
import { progressJson, transcriptJson } from './serialize.ts';
import { isEnvName } from './types.ts';
import type { EnvName, UsagePlan } from './types.ts';
import { freshCounters } from './usage-plan.ts';

const C = '/_emulator';
const bad = (message: string, status = 400) => json({ error: message }, status);

async function body(c: Context<AppEnv>): Promise<Record<string, unknown> | null> {
  try {
    const v: unknown = await c.req.json();
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** @returns whether an IP address (as Node's socket reports it) is a loopback address. */
export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Closes the control interface to every caller but this machine. It is registered on the router's own path
 * (`/_emulator/*`), so whatever spelling reaches a control route (`/%5Femulator/partners` decodes to
 * `/_emulator/partners`) meets it first. Deny by default: a call that came through a socket adapter is let through
 * only when the adapter reported a loopback peer; an in-process call (no binding) is this process's own.
 */
export const controlGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const binding = c.env;
  if (binding !== undefined && !(typeof binding.callerAddress === 'string' && isLoopback(binding.callerAddress))) {
    return json({ error: 'the control interface answers loopback callers only' }, 403);
  }
  await next();
};

/**
 * The control interface (no credentials; loopback callers only, see {@link controlGuard}).
 * See emulator/README.md for every endpoint, including the extensions beyond the contract.
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerControl(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  app.use(`${C}/*`, controlGuard);
  app.get(`${C}/partners`, (c) => json(partnersInfo(ctx.state, new URL(c.req.url).origin)));

  app.get(`${C}/catalog`, (c) => {
    const env = c.req.query('env') ?? 'sandbox';
    if (!isEnvName(env)) return bad('env must be "sandbox" or "production"');
    const catalog = ctx.state.envs[env].catalog;
    return json(catalog.courses.map((course) => courseView(catalog, course)));
  });

  // Catalog changes as the operator's re-sync makes them: checked whole before anything changes.
  for (const kind of ['courses', 'modules'] as const) {
    app.patch(`${C}/catalog/${kind}/:id`, async (c) => {
      const env = c.req.query('env') ?? 'sandbox';
      if (!isEnvName(env)) return bad('env must be "sandbox" or "production"');
      const id = parseId(c.req.param('id'));
      if (id === null) return bad('the id in the path must be a positive integer');
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return bad('body must be JSON such as {"published": false} or {"title": "New title"}');
      }
      const change = parseCatalogChange(raw);
      if (typeof change === 'string') return bad(change);
      const catalog = ctx.state.envs[env].catalog;
      const now = ctx.clock.now();
      const view = kind === 'courses' ? changeCourse(catalog, id, change, now) : changeModule(catalog, id, change, now);
      return view ? json(view) : bad(`unknown ${kind === 'courses' ? 'course' : 'module'} ${id} in ${env}`, 404);
    });
  }

  app.post(`${C}/reset`, () => {
    ctx.reset();
    return json({ reset: true, now: iso(ctx.clock.now()) });
  });

  app.get(`${C}/clock`, () => json({ now: iso(ctx.clock.now()) }));
  app.post(`${C}/clock`, async (c) => {
    const b = await body(c);
    const seconds = b?.advanceSeconds;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return bad('advanceSeconds must be a number >= 0');
    try {
      return json({ now: iso(ctx.clock.advance(seconds)) });
    } catch (error) {
      // Out of range: the clock refused the move and kept its time.
      return bad(`advanceSeconds: ${(error as RangeError).message}`);
    }
  });

  app.get(`${C}/usage-plans/:apiKey`, (c) => {
    const key = ctx.state.apiKeys.get(c.req.param('apiKey'));
    return key ? json(key.plan) : bad('unknown API key', 404);
  });
  app.put(`${C}/usage-plans/:apiKey`, async (c) => {
    const key = ctx.state.apiKeys.get(c.req.param('apiKey'));
    if (!key) return bad('unknown API key', 404);
    const b = await body(c);
    if (!b) return bad('body must be a JSON object');
    const plan: UsagePlan = { ...key.plan };
    for (const field of ['ratePerSecond', 'burst', 'dailyQuota'] as const) {
      const v = b[field];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return bad(`${field} must be a number >= 0`);
      plan[field] = v;
    }
    key.plan = plan;
    // A new plan starts with a full bucket and an unused daily quota, so tests can count from zero.
    ctx.state.usage.set(key.key, freshCounters(plan, ctx.clock.now()));
    return json(plan);
  });

  app.put(`${C}/api-keys/:apiKey`, async (c) => {
    const key = ctx.state.apiKeys.get(c.req.param('apiKey'));
    if (!key) return bad('unknown API key', 404);
    const b = await body(c);
    if (typeof b?.enabled !== 'boolean') return bad('enabled must be a boolean');
    key.enabled = b.enabled;
    return json({ enabled: key.enabled });
  });

  app.get(`${C}/faults`, () => json(ctx.faults.config));
  app.post(`${C}/faults`, async (c) => {
    const parsed = parseFaults(await body(c), ctx.seed);
    if (typeof parsed === 'string') return bad(parsed);
    ctx.faults = parsed;
    return json(parsed.config);
  });
  app.delete(`${C}/faults`, () => {
    ctx.faults = noFaults(ctx.seed);
    return new Response(null, { status: 204 });
  });

  app.get(`${C}/requests`, () => json(ctx.log.list()));
  app.delete(`${C}/requests`, () => {
    ctx.log.clear();
    return new Response(null, { status: 204 });
  });

  app.post(`${C}/scorm-completions`, async (c) => {
    const b = await body(c);
    const target = learnerOf(ctx, b);
    if (typeof target === 'string') return bad(target, target.startsWith('unknown') ? 404 : 400);
    const score = b?.score ?? null;
    if (score !== null && !isInt(score, 0, 100)) return bad('score must be an integer from 0 to 100, or null');
    if (!isInt(b?.moduleId, 1, 1e9)) return bad('moduleId must be a positive integer');
    const data = ctx.state.envs[target.env];
    const module = findReachableModule(data.catalog, b.moduleId as number);
    if (!module) return bad('unknown module (or not reachable through a published course)', 404);
    if (module.contentType !== 'scorm') return bad(`module ${module.id} is not a SCORM module`);
    const result = completeModule(data, target.uuid, module, score, ctx.clock.now());
    const progress = findProgress(data, target.uuid, module.courseId);
    return json(
      { created: result.created, transcript: transcriptJson(target.env, result.transcript), courseProgress: progress ? progressJson(target.env, progress, data.catalog) : null },
      result.created ? 201 : 200,
    );
  });

  app.post(`${C}/bulk-transcripts`, async (c) => {
    const b = await body(c);
    const target = learnerOf(ctx, b);
    if (typeof target === 'string') return bad(target, target.startsWith('unknown') ? 404 : 400);
    if (!isInt(b?.count, 1, 1_000_000)) return bad('count must be an integer from 1 to 1000000');
    const created = addBulkTranscripts(ctx.state.envs[target.env], target.uuid, b.count as number, ctx.clock.now());
    return json({ created }, 201);
  });

  app.put(`${C}/pdf-padding`, async (c) => {
    const b = await body(c);
    if (!isInt(b?.bytes, 0, 2 ** 31)) return bad('bytes must be an integer from 0 to 2147483648');
    ctx.state.pdfPadding = b.bytes as number;
    return json({ bytes: ctx.state.pdfPadding });
  });
}

function learnerOf(ctx: EmulatorContext, b: Record<string, unknown> | null): { env: EnvName; uuid: string } | string {
  if (!b) return 'body must be a JSON object';
  const env = b.env;
  if (typeof env !== 'string' || !isEnvName(env)) return 'env must be "sandbox" or "production"';
  if (typeof b.userUuid !== 'string') return 'userUuid must be a string';
  const uuid = b.userUuid.toLowerCase();
  if (!ctx.state.envs[env].users.has(uuid)) return 'unknown userUuid in that environment';
  return { env, uuid };
}
