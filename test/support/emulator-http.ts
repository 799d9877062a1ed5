/**
 * Plain-`fetch` helpers for the emulator contract suite: start the emulator on a real socket, drive its control
 * interface, get tokens and call the API with both credentials. No client library on purpose: the suite checks
 * the emulator at the HTTP level, independently of the core client.
 */
import { startEmulatorServer } from '../../emulator/server.ts';
import { ClockAnswer, EnvCreds, Partners, TokenResponse } from './emulator-schemas.ts';
import type { ClientCreds } from './emulator-schemas.ts';

/** Environment names served by the emulator. */
export type EnvName = 'sandbox' | 'production';

/** Scopes as the spec names them. */
export const READ = 'partner-api/read';
/** Write scope. */
export const WRITE = 'partner-api/write';

/** A response read once: status, headers, raw text and the JSON body when the text parses. */
export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** A running emulator plus the partners read from its control interface. */
export interface Harness {
  origin: string;
  partners: Partners;
  close: () => Promise<void>;
}

/** Credentials bound for API calls: base URL, API key and a bearer token. */
export interface Session {
  origin: string;
  env: EnvCreds;
  apiKey: string;
  token: string;
}

/** Options for {@link call}. */
export interface CallOptions {
  /** JSON body; sent with Content-Type application/json unless `contentType` says otherwise. */
  json?: unknown;
  /** Raw body text (for malformed JSON or merge-patch). */
  raw?: string;
  contentType?: string;
  userId?: string;
  /** Extra or overriding headers; a value of null removes a header the helper would set. */
  headers?: Record<string, string | null>;
}

/**
 * Reads a fetch Response whole.
 * @param res - the response
 * @returns status, headers, text and parsed JSON (undefined when not JSON)
 */
export async function readResult(res: Response): Promise<HttpResult> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/**
 * Starts the emulator on 127.0.0.1 with a free port and reads its partners. When `EMULATOR_CONTRACT_ORIGIN` is set,
 * the suite runs against that already running emulator instead (for example the CLI, or the Worker build); files
 * then share one emulator, so run them with `--no-file-parallelism`.
 * @returns the harness; call `close()` in afterAll
 */
export async function startHarness(): Promise<Harness> {
  const external = process.env.EMULATOR_CONTRACT_ORIGIN;
  if (external) {
    const partners = Partners.parse((await control(external, 'GET', '/_emulator/partners')).body);
    return { origin: external, partners, close: async () => {} };
  }
  const srv = await startEmulatorServer({ port: 0 });
  const partners = Partners.parse((await control(srv.origin, 'GET', '/_emulator/partners')).body);
  return { origin: srv.origin, partners, close: async () => { await srv.close(); } };
}

/**
 * Calls the control interface.
 * @param origin - emulator origin
 * @param method - HTTP method
 * @param path - path starting with /_emulator
 * @param body - optional JSON body
 * @returns the read response
 */
export async function control(origin: string, method: string, path: string, body?: unknown): Promise<HttpResult> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  return readResult(await fetch(`${origin}${path}`, init));
}

/**
 * Resets the emulator to its seed and fails loudly if the reset is refused.
 * @param origin - emulator origin
 * @throws Error when the control interface does not answer 2xx
 */
export async function resetEmulator(origin: string): Promise<void> {
  const res = await control(origin, 'POST', '/_emulator/reset');
  if (res.status >= 300) throw new Error(`reset answered ${res.status}`);
}

/**
 * Resets the emulator and re-reads the partners, so credentials are those of the seed now in force.
 * @param h - harness (its `partners` is replaced)
 */
export async function resetHarness(h: Harness): Promise<void> {
  await resetEmulator(h.origin);
  h.partners = Partners.parse((await control(h.origin, 'GET', '/_emulator/partners')).body);
}

/**
 * Advances the emulator clock.
 * @param origin - emulator origin
 * @param seconds - seconds to move forward
 * @returns the emulator's new now
 */
export async function advanceClock(origin: string, seconds: number): Promise<Date> {
  const res = await control(origin, 'POST', '/_emulator/clock', { advanceSeconds: seconds });
  return new Date(ClockAnswer.parse(res.body).now);
}

/**
 * Picks the credentials of one partner and environment.
 * @param h - harness
 * @param partner - index into the partner list
 * @param env - environment name
 * @returns the environment credentials
 */
export function envOf(h: Harness, partner: number, env: EnvName): EnvCreds {
  const p = h.partners[partner];
  if (!p) throw new Error(`no partner ${partner}`);
  return p.environments[env];
}

/**
 * The read-only client of an environment (scopes exactly partner-api/read).
 * @param env - environment credentials
 * @returns that client
 * @throws Error when the seed has none
 */
export function readOnlyClient(env: EnvCreds): ClientCreds {
  const c = env.clients.find((x) => x.scopes.includes(READ) && !x.scopes.includes(WRITE));
  if (!c) throw new Error('seed has no read-only client');
  return c;
}

/**
 * The first client, which the contract says is read-write.
 * @param env - environment credentials
 * @returns that client
 */
export function readWriteClient(env: EnvCreds): ClientCreds {
  const c = env.clients[0];
  if (!c) throw new Error('seed has no client');
  return c;
}

/**
 * Encodes a Basic header value the way the spec says: base64(clientId:clientSecret).
 * @param id - user part
 * @param secret - password part
 * @returns `Basic ...`
 */
export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/**
 * POSTs to a token URL with a Basic header and an exact form body.
 * @param tokenUrl - the environment's token URL
 * @param client - client credentials
 * @param scope - scope parameter; null leaves it out
 * @returns the read response
 */
export async function requestToken(tokenUrl: string, client: ClientCreds, scope: string | null = `${READ} ${WRITE}`): Promise<HttpResult> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope !== null) form.set('scope', scope);
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return readResult(res);
}

/**
 * Gets an access token or throws.
 * @param tokenUrl - the environment's token URL
 * @param client - client credentials
 * @param scope - scope parameter; null leaves it out
 * @returns the raw access token
 * @throws Error when the token endpoint does not answer 200
 */
export async function fetchToken(tokenUrl: string, client: ClientCreds, scope: string | null = `${READ} ${WRITE}`): Promise<string> {
  const res = await requestToken(tokenUrl, client, scope);
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${res.text}`);
  return TokenResponse.parse(res.body).access_token;
}

/**
 * Opens a session for a partner, environment and client.
 * @param h - harness
 * @param partner - partner index
 * @param env - environment
 * @param access - 'rw' for the first (read-write) client, 'ro' for the read-only one
 * @returns a session with a fresh token
 */
export async function openSession(h: Harness, partner = 0, env: EnvName = 'sandbox', access: 'rw' | 'ro' = 'rw'): Promise<Session> {
  const creds = envOf(h, partner, env);
  const client = access === 'rw' ? readWriteClient(creds) : readOnlyClient(creds);
  const token = await fetchToken(creds.tokenUrl, client, access === 'rw' ? `${READ} ${WRITE}` : READ);
  return { origin: h.origin, env: creds, apiKey: creds.apiKey, token };
}

/**
 * Calls an API path with both credentials (and X-User-ID when given).
 * @param s - session
 * @param method - HTTP method
 * @param path - path relative to the base URL (starting with /), or an origin-relative IRI starting with the base path
 * @param opts - body, content type, X-User-ID, header overrides
 * @returns the read response
 */
export async function call(s: Session, method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
  const basePath = new URL(s.env.baseUrl).pathname;
  const url = path.startsWith(`${basePath}/`) ? `${s.origin}${path}` : `${s.env.baseUrl}${path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${s.token}`, 'x-api-key': s.apiKey };
  let body: string | undefined;
  if (opts.json !== undefined) body = JSON.stringify(opts.json);
  if (opts.raw !== undefined) body = opts.raw;
  if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  if (opts.userId !== undefined) headers['x-user-id'] = opts.userId;
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (v === null) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  return readResult(await fetch(url, { method, headers, body }));
}
