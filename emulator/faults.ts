import safeRegex from 'safe-regex2';
import { emptyResponse } from './hydra.ts';
import { createPrng } from './prng.ts';
import type { Prng } from './prng.ts';

/** A fault injection as posted to `/_emulator/faults`. */
export interface FaultConfig {
  rate: number;
  statuses: number[];
  afterCommit: boolean;
  latencyMs: number;
  pathPattern: string | null;
  seed: number;
}

/** The active fault (if any) with its compiled pattern and its own seeded generator. */
export interface FaultState {
  config: FaultConfig | null;
  pattern: RegExp | null;
  prng: Prng;
}

/** Header on an internal response that tells the adapters to drop the connection (fault status 0). */
export const DROP_HEADER = 'x-emulator-drop';

/** Requests that faults can hit: the API under /v1 and the token endpoint. */
const FAULTABLE = /^\/(sandbox|production)\/(v1(\/|$)|oauth2\/token$)/;

/** @returns no active fault. */
export function noFaults(seed: number): FaultState {
  return { config: null, pattern: null, prng: createPrng(seed) };
}

/**
 * Validates a posted fault configuration.
 * @param body the parsed JSON body.
 * @param defaultSeed used when the body has no `seed`.
 * @returns the fault state, or a message saying what is wrong.
 */
export function parseFaults(body: unknown, defaultSeed: number): FaultState | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body must be a JSON object';
  const b = body as Record<string, unknown>;
  const rate = b.rate ?? 1;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) return 'rate must be a number from 0 to 1';
  const statuses = b.statuses ?? [500];
  if (!Array.isArray(statuses) || statuses.length === 0 || !statuses.every((s) => Number.isInteger(s) && (s === 0 || (s >= 400 && s <= 599)))) {
    return 'statuses must be a non-empty array of 0 (drop the connection) or 400-599';
  }
  const latencyMs = b.latencyMs ?? 0;
  if (typeof latencyMs !== 'number' || !(latencyMs >= 0 && latencyMs <= 600_000)) return 'latencyMs must be a number from 0 to 600000';
  if (b.afterCommit !== undefined && typeof b.afterCommit !== 'boolean') return 'afterCommit must be a boolean';
  const seed = b.seed ?? defaultSeed;
  if (!Number.isInteger(seed)) return 'seed must be an integer';
  let pattern: RegExp | null = null;
  if (b.pathPattern !== undefined && b.pathPattern !== null) {
    const checked = compilePathPattern(b.pathPattern);
    if (typeof checked === 'string') return checked;
    pattern = checked;
  }
  const config: FaultConfig = {
    rate,
    statuses: statuses as number[],
    afterCommit: b.afterCommit === true,
    latencyMs,
    pathPattern: pattern ? pattern.source : null,
    seed: seed as number,
  };
  return { config, pattern, prng: createPrng(seed as number) };
}

/** Longest `pathPattern` accepted: paths are short, and a long pattern is more room for a slow one. */
export const MAX_PATH_PATTERN_LENGTH = 200;

/**
 * Compiles a fault's `pathPattern`, refusing one that could stall the process: the pattern is matched against
 * every request's path, so a pattern with nested quantifiers (`^/(a+)+$`, exponential backtracking on a crafted
 * path) would let one control call freeze the emulator. `safe-regex2` (fastify's check) refuses star height above
 * one; the length limit bounds what remains.
 * @param source the posted value.
 * @returns the compiled pattern, or a message saying what is wrong.
 */
export function compilePathPattern(source: unknown): RegExp | string {
  if (typeof source !== 'string') return 'pathPattern must be a string (a regular expression)';
  if (source.length > MAX_PATH_PATTERN_LENGTH) return `pathPattern must be at most ${MAX_PATH_PATTERN_LENGTH} characters`;
  let pattern: RegExp;
  try {
    pattern = new RegExp(source);
  } catch {
    return 'pathPattern is not a valid regular expression';
  }
  if (!safeRegex(pattern)) {
    return 'pathPattern could backtrack without bound (a quantifier inside a quantified group, such as (a+)+): write it without nested repetition';
  }
  return pattern;
}

/** What to do with one request. */
export interface FaultDecision {
  latencyMs: number;
  /** null: serve normally (after the latency). */
  status: number | null;
  afterCommit: boolean;
}

/** @returns the pathname without its `/{env}/v1` or `/{env}` prefix, e.g. `/courses` or `/oauth2/token`. */
export function specPath(pathname: string): string {
  return pathname.replace(/^\/(?:sandbox|production)(?:\/v1(?=\/|$))?/, '') || '/';
}

/**
 * @param faults the active fault state (its generator advances).
 * @param pathname the request's URL pathname.
 * @returns null when the request is not affected at all.
 */
export function decideFault(faults: FaultState, pathname: string): FaultDecision | null {
  const config = faults.config;
  if (!config || !FAULTABLE.test(pathname)) return null;
  // The pattern may be written for the full path (`^/sandbox/v1/courses$`) or for the path the spec uses, relative
  // to the base address or token URL (`^/courses$`, `^/oauth2/token$`): either form matches.
  if (faults.pattern && !faults.pattern.test(pathname) && !faults.pattern.test(specPath(pathname))) return null;
  const hit = faults.prng.next() < config.rate;
  const status = hit ? (config.statuses[Math.floor(faults.prng.next() * config.statuses.length)] ?? 500) : null;
  return { latencyMs: config.latencyMs, status, afterCommit: config.afterCommit };
}

const GATEWAY_MESSAGES: Record<number, string> = {
  429: 'Too Many Requests',
  500: 'Internal server error',
  502: 'Internal server error',
  503: 'Service Unavailable',
  504: 'Endpoint request timed out',
  401: 'Unauthorized',
};

/**
 * The response an injected fault produces: gateway-style `{"message"}` bodies (API Gateway's wording),
 * an empty 403, or for status 0 a marker the adapters turn into a dropped connection.
 * @param status the drawn status.
 * @returns the fault response.
 */
export function faultResponse(status: number): Response {
  if (status === 0) return new Response(null, { status: 502, headers: { [DROP_HEADER]: '1' } });
  if (status === 403) return emptyResponse(status);
  const message = GATEWAY_MESSAGES[status] ?? (status >= 500 ? 'Internal server error' : 'Bad Request');
  return new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json' } });
}
