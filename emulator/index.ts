import type { Hono } from 'hono';
import { createApp } from './app.ts';
import { changeCourse, changeModule, parseCatalogChange } from './catalog-edit.ts';
import type { CatalogChange, CatalogCourseView, CatalogModuleView } from './catalog-edit.ts';
import { createClock, iso } from './clock.ts';
import type { AppEnv, EmulatorContext } from './context.ts';
import { DROP_HEADER, noFaults } from './faults.ts';
import { createKeyStore } from './keys.ts';
import { partnersInfo } from './partners.ts';
import type { PartnerInfo } from './partners.ts';
import { createPrng, deriveSeed } from './prng.ts';
import { createRequestLog } from './request-log.ts';
import { createState } from './state.ts';
import { isEnvName } from './types.ts';
import type { EnvName } from './types.ts';

export type { ClientInfo, EnvironmentInfo, PartnerInfo } from './partners.ts';
export type { RequestLogEntry } from './request-log.ts';
export type { FaultConfig } from './faults.ts';
export type { EnvName, UsagePlan } from './types.ts';
export type { CatalogChange, CatalogCourseView, CatalogModuleView } from './catalog-edit.ts';
export { DROP_HEADER } from './faults.ts';

/** Options of {@link createEmulator}. */
export interface EmulatorOptions {
  /** Deterministic seed data and credentials (default 1). */
  seed?: number;
  /** Base clock, epoch ms (default Date.now); POST /_emulator/clock adds an offset. */
  now?: () => number;
  /** PDF generation takes 1-3 s of real time (off by default). */
  realisticLatency?: boolean;
}

/** A running in-process emulator. */
export interface Emulator {
  /** The Hono app (all routes). */
  app: Hono<AppEnv>;
  /**
   * The app's fetch; pass it to a client. A fault with status 0 ("drop the connection") rejects with
   * `TypeError('fetch failed')`, as a real fetch does when the socket closes.
   */
  fetch(request: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** What GET /_emulator/partners returns for that origin. */
  partners(origin: string): PartnerInfo[];
  /** Like POST /_emulator/reset. */
  reset(): void;
  /**
   * Like POST /_emulator/clock. @returns the new emulator time, ISO 8601.
   * @throws {RangeError} for a negative or non-finite move, or one past 9999-01-01; the clock keeps its time.
   */
  advanceClock(seconds: number): string;
  /** @returns the emulator's clock, epoch ms. */
  now(): number;
  /**
   * Like PATCH /_emulator/catalog/courses/{id}: publish, unpublish or retitle a course; its `updatedAt` moves to now.
   * @returns the course as GET /_emulator/catalog shows it.
   * @throws {TypeError} for a change other than `{published?: boolean, title?: string}`; {RangeError} for an unknown id.
   */
  patchCourse(id: number, change: CatalogChange, env?: EnvName): CatalogCourseView;
  /**
   * Like PATCH /_emulator/catalog/modules/{id}: publish, unpublish or retitle a module; its `updatedAt` moves to now.
   * @returns the module as GET /_emulator/catalog shows it.
   * @throws {TypeError} for a change other than `{published?: boolean, title?: string}`; {RangeError} for an unknown id.
   */
  patchModule(id: number, change: CatalogChange, env?: EnvName): CatalogModuleView;
}

/**
 * Creates an in-memory Partner Learning Service. Synchronous: RSA keys are generated on first use.
 * @param options seed, clock and latency.
 * @returns the emulator.
 * @throws {TypeError} when `seed` is not an integer.
 * @example
 * const emulator = createEmulator({ seed: 7 });
 * const [partner] = emulator.partners('http://emulator.test');
 * const res = await emulator.fetch(new Request(`${partner.environments.sandbox.baseUrl}/ping`, {
 *   headers: { 'x-api-key': partner.environments.sandbox.apiKey },
 * }));
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new TypeError(`createEmulator: seed must be an integer, got ${String(seed)}`);
  const clock = createClock(options.now ?? Date.now);
  const ctx: EmulatorContext = {
    seed,
    clock,
    state: createState(seed, clock.now()),
    keys: createKeyStore(seed),
    faults: noFaults(seed),
    log: createRequestLog(),
    realisticLatency: options.realisticLatency === true,
    latency: createPrng(deriveSeed(seed, 'latency')),
    reset() {
      clock.reset();
      ctx.state = createState(seed, clock.now());
      ctx.faults = noFaults(seed);
      ctx.log.clear();
      ctx.latency = createPrng(deriveSeed(seed, 'latency'));
    },
  };
  const app = createApp(ctx);
  return {
    app,
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const res = await app.fetch(request);
      if (res.headers.has(DROP_HEADER)) throw new TypeError('fetch failed');
      return res;
    },
    partners: (origin) => partnersInfo(ctx.state, origin),
    reset: () => ctx.reset(),
    advanceClock(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('advanceClock: seconds must be a finite number >= 0');
      try {
        return iso(clock.advance(seconds));
      } catch (error) {
        throw new RangeError(`advanceClock: ${(error as RangeError).message}`);
      }
    },
    now: () => clock.now(),
    patchCourse: (id, change, env = 'sandbox') => patchCatalog(ctx, 'course', id, change, env) as CatalogCourseView,
    patchModule: (id, change, env = 'sandbox') => patchCatalog(ctx, 'module', id, change, env) as CatalogModuleView,
  };
}

function patchCatalog(ctx: EmulatorContext, kind: 'course' | 'module', id: number, change: unknown, env: EnvName): CatalogCourseView | CatalogModuleView {
  const method = kind === 'course' ? 'patchCourse' : 'patchModule';
  if (!isEnvName(env)) throw new TypeError(`${method}: env must be "sandbox" or "production", got ${JSON.stringify(env)}`);
  const parsed = parseCatalogChange(change);
  if (typeof parsed === 'string') throw new TypeError(`${method}: ${parsed}`);
  const catalog = ctx.state.envs[env].catalog;
  const view = Number.isSafeInteger(id) ? (kind === 'course' ? changeCourse : changeModule)(catalog, id, parsed, ctx.clock.now()) : undefined;
  if (!view) throw new RangeError(`${method}: unknown ${kind} ${String(id)} in ${env}`);
  return view;
}
