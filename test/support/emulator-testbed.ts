/** Shared set-up for the emulator's unit tests (not shipped behaviour). */
import { createEmulator } from '../../emulator/index.ts';
import type { Emulator, EmulatorOptions, EnvironmentInfo } from '../../emulator/index.ts';

/** Origin of in-process requests. */
export const ORIGIN = 'http://emulator.test';

/** An in-process emulator on a fake clock, with helpers bound to partner 0 of an environment. */
export interface TestBed {
  emulator: Emulator;
  env: EnvironmentInfo;
  clock: { ms: number };
  send(path: string, init?: RequestInit): Promise<Response>;
  token(scope?: string | null, clientIndex?: number, env?: EnvironmentInfo): Promise<string>;
  api(path: string, init?: RequestInit & { user?: string; scope?: string | null }): Promise<Response>;
  register(email?: string): Promise<{ uuid: string; status: string; email: string }>;
}

/**
 * @param options emulator options (the clock is always a fake one starting 2026-01-15T10:00:00Z).
 * @returns the test bed.
 */
export function testBed(options: EmulatorOptions = {}): TestBed {
  const clock = { ms: Date.parse('2026-01-15T10:00:00.000Z') };
  const emulator = createEmulator({ ...options, now: () => clock.ms });
  const env = emulator.partners(ORIGIN)[0]?.environments.sandbox as EnvironmentInfo;
  const tokens = new Map<string, string>();
  const send = (path: string, init?: RequestInit) => emulator.fetch(new Request(path.startsWith('http') ? path : ORIGIN + path, init));
  const token = async (scope: string | null = null, clientIndex = 0, e: EnvironmentInfo = env) => {
    const client = e.clients[clientIndex];
    if (!client) throw new Error('no such client');
    const cacheKey = `${e.tokenUrl}|${client.clientId}|${scope}`;
    const known = tokens.get(cacheKey);
    if (known) return known;
    const res = await send(e.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: scope === null ? 'grant_type=client_credentials' : `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
    });
    const body = (await res.json()) as { access_token: string };
    tokens.set(cacheKey, body.access_token);
    return body.access_token;
  };
  const api = async (path: string, init: RequestInit & { user?: string; scope?: string | null } = {}) => {
    const { user, scope, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (!headers.has('x-api-key')) headers.set('x-api-key', env.apiKey);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${await token(scope ?? null)}`);
    if (user) headers.set('x-user-id', user);
    return send(`${env.baseUrl}${path}`, { ...rest, headers });
  };
  const register = async (email = 'learner@example.com') => {
    const res = await api('/users/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, firstName: 'Ada', lastName: 'Lovelace', organizationId: 1 }),
    });
    if (res.status !== 201) throw new Error(`register answered ${res.status}`);
    return (await res.json()) as { uuid: string; status: string; email: string };
  };
  return { emulator, env, clock, send, token, api, register };
}
