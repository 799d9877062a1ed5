/**
 * Shared pieces of the benchmarks: talking to the emulator's control interface, building client options from its
 * partner list, and simple statistics.
 */
import type { ClientOptions, PartnerLearningClient } from '../core/index.ts';
import { mintLearnerToken } from '../edge/learner-token.ts';

/** What `GET /_emulator/partners` (or `emulator.partners(origin)`) lists, as far as the benchmarks need it. */
export interface Partner {
  environments: Record<
    string,
    { tokenUrl: string; baseUrl: string; apiKey: string; clients: { clientId: string; clientSecret: string }[] }
  >;
}

/** One row of the Markdown table. */
export interface BenchResult {
  id: string;
  name: string;
  /** The headline value, formatted. */
  result: string;
  target: string;
  /** `null` when there is no target (report only). */
  met: boolean | null;
  /** Raw numbers for the JSON file. */
  details: Record<string, unknown>;
}

/** The sandbox environment of a partner, or an error saying the emulator listed none. */
export function sandboxOf(partner: Partner | undefined): Partner['environments'][string] & { clientId: string; clientSecret: string } {
  const env = partner?.environments['sandbox'];
  const rw = env?.clients[0];
  if (!env || !rw) throw new Error('the emulator listed no sandbox partner with a client');
  return { ...env, clientId: rw.clientId, clientSecret: rw.clientSecret };
}

/**
 * Client options for a partner's sandbox read-write client.
 *
 * @param partner - From the emulator's partner list.
 * @param fetchImpl - In-process `emu.fetch` adapter or the global fetch.
 * @param extra - Further options.
 * @returns Options for `createClient`.
 */
export function clientOptions(partner: Partner | undefined, fetchImpl: typeof fetch, extra: Partial<ClientOptions> = {}): ClientOptions {
  const env = sandboxOf(partner);
  return {
    tokenUrl: env.tokenUrl,
    baseUrl: env.baseUrl,
    clientId: env.clientId,
    clientSecret: env.clientSecret,
    apiKey: env.apiKey,
    environment: 'sandbox',
    fetch: fetchImpl,
    ...extra,
  };
}

/**
 * Calls the emulator's control interface and parses the JSON answer.
 *
 * @param fetchImpl - How to reach the emulator.
 * @param origin - The emulator's origin.
 * @param method - HTTP method.
 * @param path - Path under the origin, e.g. `/_emulator/requests`.
 * @param body - JSON body, if any.
 * @returns The parsed answer (undefined for an empty body).
 * @throws Error with the status when the control call fails.
 */
export async function control(fetchImpl: typeof fetch, origin: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetchImpl(`${origin}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Replaces the usage plan of an API key.
 *
 * @param fetchImpl - How to reach the emulator.
 * @param origin - The emulator's origin.
 * @param apiKey - The key whose plan changes.
 * @param plan - Rate, burst and daily quota.
 */
export async function putUsagePlan(
  fetchImpl: typeof fetch,
  origin: string,
  apiKey: string,
  plan: { ratePerSecond: number; burst: number; dailyQuota: number },
): Promise<void> {
  await control(fetchImpl, origin, 'PUT', `/_emulator/usage-plans/${encodeURIComponent(apiKey)}`, plan);
}

/** A usage plan that never throttles a benchmark. */
export const generousPlan = { ratePerSecond: 1_000_000, burst: 1_000_000, dailyQuota: 1_000_000_000 };

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  at: string;
}

/**
 * The emulator's request log since the last reset.
 *
 * @param fetchImpl - How to reach the emulator.
 * @param origin - The emulator's origin.
 * @returns Entries, oldest first.
 */
export async function requestLog(fetchImpl: typeof fetch, origin: string): Promise<LoggedRequest[]> {
  return (await control(fetchImpl, origin, 'GET', '/_emulator/requests')) as LoggedRequest[];
}

/**
 * The id of a published course, from the control catalog (no token needed, so cold-start counts stay clean).
 *
 * @param fetchImpl - How to reach the emulator.
 * @param origin - The emulator's origin.
 * @returns A course id that `GET /courses/{id}` answers with 200.
 * @throws Error when the catalog lists no published course.
 */
export async function publishedCourseId(fetchImpl: typeof fetch, origin: string): Promise<number> {
  const catalog = (await control(fetchImpl, origin, 'GET', '/_emulator/catalog?env=sandbox')) as
    | { id: number; published: boolean }[]
    | { courses: { id: number; published: boolean }[] };
  const courses = Array.isArray(catalog) ? catalog : catalog.courses;
  const course = courses.find((c) => c.published);
  if (!course) throw new Error('the emulator catalog has no published course');
  return course.id;
}

/**
 * @param values Measurements.
 * @param p The percentile, 0 to 100.
 * @returns The nearest-rank percentile (NaN for no values).
 */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Median of a list of numbers (0 for an empty list). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Arithmetic mean (0 for an empty list). */
export function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Formats a number with a fixed count of decimals. */
export function fixed(value: number, digits = 2): string {
  return value.toFixed(digits);
}

/** Formats bytes in MB of 2^20 bytes, one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** Like {@link mib} with an explicit sign (`+3.1 MB`, `-1.4 MB`), for differences against a baseline. */
export function signedMib(bytes: number): string {
  return `${bytes < 0 ? '-' : '+'}${mib(Math.abs(bytes))}`;
}

/**
 * Registers learners through a client and mints a relay learner token for each (one hour).
 *
 * @param client A client of the partner.
 * @param count How many.
 * @param prefix Their e-mail prefix (unique per benchmark, so registrations are new).
 * @param secret The relay's `LEARNER_TOKEN_SECRET`.
 * @returns Their UUIDs and tokens, in order.
 */
export async function learnersWithTokens(
  client: PartnerLearningClient, count: number, prefix: string, secret: string,
): Promise<{ uuids: string[]; tokens: string[] }> {
  const uuids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    uuids.push((await client.users.register({ email: `${prefix}-${i}@example.com`, firstName: 'B', lastName: `L${i}`, organizationId: 1 })).uuid);
  }
  const key = new TextEncoder().encode(secret);
  const tokens = await Promise.all(uuids.map(async (uuid) => (await mintLearnerToken(key, uuid, 3600, Date.now())).token));
  return { uuids, tokens };
}

/** One round of load: each call's time, how many calls ended each way, and the round's wall time. */
export interface LoadRound {
  latencies: number[];
  /** How the calls ended (a status, an error code), counted. */
  outcomes: Map<string, number>;
  wallMs: number;
}

/**
 * `callers` at once, each making `callsEach` calls in turn.
 *
 * @param callers How many call at once.
 * @param callsEach How many calls each makes, one after another.
 * @param call One call by `caller`, resolving to how it ended.
 * @returns The round's figures.
 */
export async function loadRound(callers: number, callsEach: number, call: (caller: number) => Promise<string>): Promise<LoadRound> {
  const round: LoadRound = { latencies: [], outcomes: new Map(), wallMs: 0 };
  const started = performance.now();
  await Promise.all(Array.from({ length: callers }, async (_, caller) => {
    for (let i = 0; i < callsEach; i += 1) {
      const t = performance.now();
      const outcome = await call(caller);
      round.outcomes.set(outcome, (round.outcomes.get(outcome) ?? 0) + 1);
      round.latencies.push(performance.now() - t);
    }
  }));
  round.wallMs = performance.now() - started;
  return round;
}
