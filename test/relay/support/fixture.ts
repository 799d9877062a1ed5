/**
 * What the shared relay suite runs against: the emulator over a socket, the relay's settings for its first partner
 * (sandbox, read-write client), an HTTP helper that keeps every response for the secret scan, and forged tokens.
 */
import { SignJWT } from 'jose';
import { createClient, type PartnerLearningClient } from '../../../core/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../../emulator/server.ts';

export const RELAY_KEY = 'relay-key-for-tests-0123456789abcdefghijklmnop';
export const OTHER_RELAY_KEY = 'relay-key-second-0123456789abcdefghijklmnopqrs';
export const LEARNER_SECRET = 'learner-token-secret-for-tests-0123456789abcdef';
export const PARTNER_ORIGIN = 'https://learn.partner.example';
export const AUDIENCE = 'partner-learning-relay';

/** One response as the suite saw it (body read once, as text). */
export interface Seen {
  status: number;
  headers: Headers;
  text: string;
  json(): unknown;
}

/** The emulator, the relay settings and the credentials they hold. */
export interface Upstream {
  server: EmulatorServer;
  settings: Record<string, string>;
  secrets: string[];
  /** The core client on the same partner, for setting up data the relay cannot (transcript ids). */
  client: PartnerLearningClient;
  /** Emulator request-log entries so far. */
  requests(): Promise<{ method: string; path: string; status: number }[]>;
  /** Token requests made by the relay (the test client's one is not counted). */
  tokenRequests(): Promise<number>;
}

/**
 * @returns The emulator on a loopback port and the relay's settings for it.
 */
export async function startUpstream(): Promise<Upstream> {
  const server = await startEmulatorServer({ port: 0 });
  const env = server.emulator.partners(server.origin)[0]?.environments.sandbox;
  const rw = env?.clients[0];
  if (!env || !rw) throw new Error('the emulator listed no sandbox partner');
  const settings = {
    PARTNER_LEARNING_TOKEN_URL: env.tokenUrl,
    PARTNER_LEARNING_BASE_URL: env.baseUrl,
    PARTNER_LEARNING_CLIENT_ID: rw.clientId,
    PARTNER_LEARNING_CLIENT_SECRET: rw.clientSecret,
    PARTNER_LEARNING_API_KEY: env.apiKey,
    RELAY_KEYS: `${RELAY_KEY}, ${OTHER_RELAY_KEY}`,
    LEARNER_TOKEN_SECRET: LEARNER_SECRET,
    ALLOWED_ORIGINS: `${PARTNER_ORIGIN},http://localhost:5173`,
    RELAY_LOG_LEVEL: 'debug',
  };
  const client = createClient({
    tokenUrl: env.tokenUrl, baseUrl: env.baseUrl, clientId: rw.clientId, clientSecret: rw.clientSecret, apiKey: env.apiKey,
  });
  // Warm the test's own client now, so its one token request is not counted against the relay.
  await client.organizations.get(1);
  const requests = async () => (await (await fetch(`${server.origin}/_emulator/requests`)).json()) as { method: string; path: string; status: number }[];
  return {
    server,
    settings,
    secrets: [rw.clientSecret, env.apiKey, RELAY_KEY, OTHER_RELAY_KEY, LEARNER_SECRET],
    client,
    requests,
    tokenRequests: async () => (await requests()).filter((r) => r.path.endsWith('/oauth2/token')).length - 1,
  };
}

/** Calls the relay and keeps every response (for the secret scan). */
export class RelayHttp {
  readonly seen: Seen[] = [];
  readonly origin: string;

  /** @param origin The relay's origin. */
  constructor(origin: string) {
    this.origin = origin;
  }

  async call(path: string, init: RequestInit = {}): Promise<Seen> {
    const response = await fetch(`${this.origin}${path}`, { redirect: 'manual', ...init });
    const text = await response.text();
    const seen: Seen = { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
    this.seen.push(seen);
    return seen;
  }

  backend(path: string, init: RequestInit & { userId?: string } = {}): Promise<Seen> {
    const headers = new Headers(init.headers);
    headers.set('x-relay-key', RELAY_KEY);
    if (init.userId) headers.set('x-user-id', init.userId);
    return this.call(path, { ...init, headers });
  }

  learner(token: string, path: string, init: RequestInit = {}): Promise<Seen> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return this.call(path, { ...init, headers });
  }
}

/** Claims of a forged or hand-minted learner token (`undefined` leaves a claim out). */
export interface Claims {
  sub?: string;
  aud?: string;
  iat?: number;
  exp?: number;
}

/**
 * Signs a token the way a partner backend would (or would not).
 *
 * @param claims The claims; times in epoch seconds.
 * @param secret The HS256 key text (default: the relay's).
 * @returns A compact JWT.
 */
export async function signToken(claims: Claims, secret = LEARNER_SECRET): Promise<string> {
  let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setJti(crypto.randomUUID());
  if (claims.sub !== undefined) jwt = jwt.setSubject(claims.sub);
  if (claims.aud !== undefined) jwt = jwt.setAudience(claims.aud);
  if (claims.iat !== undefined) jwt = jwt.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** An unsigned `alg: none` token with otherwise valid claims. */
export function unsignedToken(sub: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub, aud: AUDIENCE, iat: now, exp: now + 600 })}.`;
}

/** Every compact JWT in a text. */
export function jwtsIn(text: string): string[] {
  return text.match(/eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g) ?? [];
}

/** The decoded payload of a compact JWT. */
export function payloadOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
