/**
 * The relay's settings (relay contract, "Configuration"): read from Workers vars and secrets or environment
 * variables, checked once. Problems name the setting and what to fix, never its value.
 */

/** Raw settings as the runtime hands them over (Workers `env`, `process.env`, `Deno.env.toObject()`). */
export type RelaySettings = Readonly<Record<string, unknown>>;

/** The relay's configuration after every check passed. */
export interface RelayConfig {
  tokenUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  scopes: string[];
  relayKeys: string[];
  /** The UTF-8 bytes of `LEARNER_TOKEN_SECRET`: the HS256 key. */
  learnerTokenKey: Uint8Array<ArrayBuffer>;
  learnerTokenSecret: string;
  allowedOrigins: string[];
  /** `RELAY_DEADLINE_MS`: how long a call may take from the request's arrival (default 15000). */
  deadlineMs: number;
  /** `RELAY_PUBLIC_ORIGIN`: the origin links in bodies point at; absent, the entry's own (never the caller's Host). */
  publicOrigin: string | undefined;
}

/** The deadline when `RELAY_DEADLINE_MS` is not set, and its bounds (relay contract, "Errors"). */
export const DEFAULT_DEADLINE_MS = 15_000;
const DEADLINE_RANGE = [1000, 60_000] as const;

/** Every setting that holds a secret: never echoed, scanned for in tests. */
export const SECRET_SETTINGS = [
  'PARTNER_LEARNING_CLIENT_SECRET',
  'PARTNER_LEARNING_API_KEY',
  'RELAY_KEYS',
  'LEARNER_TOKEN_SECRET',
] as const;

/** The shortest relay key and learner-token secret the contract allows. */
export const MIN_SECRET_LENGTH = 32;

const DEFAULT_SCOPES = ['partner-api/read', 'partner-api/write'];

/** The outcome of {@link readRelayConfig}: a config, or every problem found. */
export type ConfigResult = { ok: true; config: RelayConfig } | { ok: false; problems: string[] };

function text(settings: RelaySettings, name: string, problems: string[]): string {
  const value = settings[name];
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push(`${name} is missing: set it (see the relay contract, "Configuration")`);
    return '';
  }
  return value.trim();
}

function httpUrl(settings: RelaySettings, name: string, problems: string[]): string {
  const value = text(settings, name, problems);
  if (value === '') return value;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push(`${name} must be an http(s) URL`);
  } catch {
    problems.push(`${name} is malformed: it must be an absolute http(s) URL`);
  }
  return value;
}

function relayKeys(settings: RelaySettings, problems: string[]): string[] {
  const raw = text(settings, 'RELAY_KEYS', problems);
  if (raw === '') return [];
  const keys = raw.split(',').map((k) => k.trim()).filter((k) => k !== '');
  if (keys.length === 0) problems.push('RELAY_KEYS is malformed: give at least one key (comma-separated)');
  if (keys.some((k) => k.length < MIN_SECRET_LENGTH)) {
    problems.push(`RELAY_KEYS is malformed: every key must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  return keys;
}

function origins(settings: RelaySettings, problems: string[]): string[] {
  const value = settings['ALLOWED_ORIGINS'];
  if (typeof value !== 'string') {
    problems.push('ALLOWED_ORIGINS is missing: set it to the comma-separated origins browsers may call from (may be empty)');
    return [];
  }
  const list = value.split(',').map((o) => o.trim()).filter((o) => o !== '');
  for (const origin of list) {
    let canonical: string | undefined;
    try {
      canonical = new URL(origin).origin;
    } catch {
      canonical = undefined;
    }
    if (canonical !== origin) {
      problems.push('ALLOWED_ORIGINS is malformed: each entry must be an exact origin such as https://learn.partner.example (scheme, host, optional port; no path or trailing slash)');
      break;
    }
  }
  return list;
}

function deadline(settings: RelaySettings, problems: string[]): number {
  const value = settings['RELAY_DEADLINE_MS'];
  if (value === undefined || value === '') return DEFAULT_DEADLINE_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < DEADLINE_RANGE[0] || ms > DEADLINE_RANGE[1]) {
    problems.push(`RELAY_DEADLINE_MS is malformed: give whole milliseconds from ${DEADLINE_RANGE[0]} to ${DEADLINE_RANGE[1]}`);
  }
  return ms;
}

function publicOrigin(settings: RelaySettings, problems: string[]): string | undefined {
  const value = settings['RELAY_PUBLIC_ORIGIN'];
  if (value === undefined || value === '') return undefined;
  let origin: string | undefined;
  try {
    origin = typeof value === 'string' ? new URL(value).origin : undefined;
  } catch {
    origin = undefined;
  }
  if (origin !== value) {
    problems.push('RELAY_PUBLIC_ORIGIN is malformed: give the exact origin callers reach the relay at, such as https://relay.partner.example');
    return undefined;
  }
  return origin;
}

function scopes(settings: RelaySettings, problems: string[]): string[] {
  const value = settings['PARTNER_LEARNING_SCOPES'];
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return [...DEFAULT_SCOPES];
  if (typeof value !== 'string') {
    problems.push('PARTNER_LEARNING_SCOPES is malformed: give space-separated scopes');
    return [];
  }
  return value.trim().split(/\s+/);
}

/**
 * Reads and checks the relay's settings.
 *
 * @param settings Workers `env`, `process.env` or `Deno.env.toObject()`.
 * @returns The config, or every problem found (each names its setting, never its value).
 * @example
 * const result = readRelayConfig(process.env);
 * if (!result.ok) throw new Error(result.problems.join('; '));
 */
export function readRelayConfig(settings: RelaySettings): ConfigResult {
  const problems: string[] = [];
  const tokenUrl = httpUrl(settings, 'PARTNER_LEARNING_TOKEN_URL', problems);
  const baseUrl = httpUrl(settings, 'PARTNER_LEARNING_BASE_URL', problems);
  const clientId = text(settings, 'PARTNER_LEARNING_CLIENT_ID', problems);
  const clientSecret = text(settings, 'PARTNER_LEARNING_CLIENT_SECRET', problems);
  const apiKey = text(settings, 'PARTNER_LEARNING_API_KEY', problems);
  const keys = relayKeys(settings, problems);
  const secret = typeof settings['LEARNER_TOKEN_SECRET'] === 'string' ? settings['LEARNER_TOKEN_SECRET'] : '';
  if (secret === '') problems.push('LEARNER_TOKEN_SECRET is missing: set it to at least 32 random characters');
  else if (secret.length < MIN_SECRET_LENGTH) problems.push(`LEARNER_TOKEN_SECRET is malformed: it must be at least ${MIN_SECRET_LENGTH} characters`);
  const allowedOrigins = origins(settings, problems);
  const scopeList = scopes(settings, problems);
  const deadlineMs = deadline(settings, problems);
  const origin = publicOrigin(settings, problems);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      tokenUrl,
      baseUrl,
      clientId,
      clientSecret,
      apiKey,
      scopes: scopeList,
      relayKeys: keys,
      learnerTokenKey: new TextEncoder().encode(secret),
      learnerTokenSecret: secret,
      allowedOrigins,
      deadlineMs,
      publicOrigin: origin,
    },
  };
}
