import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../emulator/index.ts';
import { createRelay, relaySettingsProblems, type RelayDeps } from './app.ts';

const KEY = 'unit-relay-key-0123456789abcdefghijklmnopqrstu';
const SECRET = 'unit-learner-secret-0123456789abcdefghijklmno';

interface Setup {
  emu: Emulator;
  settings: Record<string, string>;
  lines: string[];
  relay(extra?: Partial<RelayDeps>, settings?: Record<string, string | undefined>): ReturnType<typeof createRelay>;
}

function setup(): Setup {
  const emu = createEmulator();
  const env = emu.partners('http://emulator.test')[0]!.environments.sandbox;
  const settings = {
    PARTNER_LEARNING_TOKEN_URL: env.tokenUrl,
    PARTNER_LEARNING_BASE_URL: env.baseUrl,
    PARTNER_LEARNING_CLIENT_ID: env.clients[0]!.clientId,
    PARTNER_LEARNING_CLIENT_SECRET: env.clients[0]!.clientSecret,
    PARTNER_LEARNING_API_KEY: env.apiKey,
    RELAY_KEYS: KEY,
    LEARNER_TOKEN_SECRET: SECRET,
    ALLOWED_ORIGINS: 'https://learn.partner.example',
  };
  const lines: string[] = [];
  return {
    emu,
    settings,
    lines,
    relay: (extra = {}, override = {}) => createRelay({
      settings: { ...settings, ...override },
      fetch: (input, init) => emu.fetch(input as Request, init),
      logger: (level, message, fields) => lines.push(JSON.stringify({ level, message, fields })),
      retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
      ...extra,
    }),
  };
}

const backend = { 'x-relay-key': KEY };
const control = (emu: Emulator, path: string, body: unknown) =>
  emu.fetch(`http://emulator.test/_emulator/${path}`, { method: path.startsWith('usage') ? 'PUT' : 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('createRelay: configuration', () => {
  let s: Setup;
  beforeEach(() => {
    s = setup();
  });

  it.each([
    [{ RELAY_KEYS: undefined }, 'RELAY_KEYS'],
    [{ RELAY_KEYS: 'short' }, 'RELAY_KEYS'],
    [{ LEARNER_TOKEN_SECRET: 'too-short-secret' }, 'LEARNER_TOKEN_SECRET'],
    [{ ALLOWED_ORIGINS: 'https://learn.partner.example/' }, 'ALLOWED_ORIGINS'],
    [{ ALLOWED_ORIGINS: undefined }, 'ALLOWED_ORIGINS'],
    [{ PARTNER_LEARNING_BASE_URL: 'not a url' }, 'PARTNER_LEARNING_BASE_URL'],
    [{ PARTNER_LEARNING_API_KEY: '' }, 'PARTNER_LEARNING_API_KEY'],
  ])('answers every request 500 relay_misconfigured naming the setting (%o), never a value', async (override, name) => {
    const app = s.relay({}, override);
    for (const path of ['/v1/ping', '/v1/unknown']) {
      const res = await app.request(path, { headers: backend });
      const body = (await res.json()) as { code: string; detail: string };
      expect([res.status, body.code, res.headers.get('content-type')]).toEqual([500, 'relay_misconfigured', 'application/problem+json']);
      expect(body.detail).toContain(name);
      for (const secret of [s.settings.PARTNER_LEARNING_CLIENT_SECRET, s.settings.PARTNER_LEARNING_API_KEY, SECRET]) {
        expect(body.detail).not.toContain(secret);
      }
    }
    expect(relaySettingsProblems({ ...s.settings, ...override }).join(' ')).toContain(name);
  });

  it("reports the core's refusal of the service settings (a base URL without /v1)", async () => {
    const base = (s.settings.PARTNER_LEARNING_BASE_URL ?? '').replace(/\/v1$/, '');
    const res = await s.relay({}, { PARTNER_LEARNING_BASE_URL: base }).request('/v1/ping', { headers: backend });
    expect(await res.json()).toMatchObject({ status: 500, code: 'relay_misconfigured', detail: expect.stringContaining('/v1') });
  });

  it('names TOKEN_CACHE when the Workers entry finds no KV binding', async () => {
    const res = await s.relay({ requiredTokenStore: 'TOKEN_CACHE' }).request('/v1/ping', { headers: backend });
    expect(await res.json()).toMatchObject({ code: 'relay_misconfigured', detail: expect.stringContaining('TOKEN_CACHE') });
    expect(relaySettingsProblems(s.settings)).toEqual([]);
  });
});

describe('createRelay: logging', () => {
  it("passes every line on by default, and with logLevel only the lines at or above it (the core's too)", async () => {
    const all = setup();
    expect((await all.relay().request('/v1/courses/1', { headers: backend })).status).toBe(200);
    const levels = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { level: string }).level);
    expect(levels(all.lines)).toContain('debug');
    const kept = setup();
    expect((await kept.relay({ logLevel: 'info' }).request('/v1/courses/1', { headers: backend })).status).toBe(200);
    expect(new Set(levels(kept.lines))).toEqual(new Set(['info']));
    expect(kept.lines.join('\n')).toContain('relayed');
  });
});

describe('createRelay: upstream failures', () => {
  let s: Setup;
  beforeEach(() => {
    s = setup();
  });

  it("answers 502 upstream_auth_failed when the service refuses the relay's credentials, and logs what to check", async () => {
    const app = s.relay({}, { PARTNER_LEARNING_CLIENT_SECRET: 'a-wrong-client-secret-of-sufficient-length' });
    const res = await app.request('/v1/courses/1', { headers: backend });
    const text = await res.text();
    expect([res.status, JSON.parse(text).code]).toEqual([502, 'upstream_auth_failed']);
    expect(text).not.toContain('PARTNER_LEARNING');
    expect(s.lines.join('\n')).toContain('PARTNER_LEARNING_CLIENT_SECRET');
    expect(s.lines.join('\n')).not.toContain('a-wrong-client-secret-of-sufficient-length');
  });

  it('answers 503 upstream_unavailable with Retry-After when the service keeps failing', async () => {
    await control(s.emu, 'faults', { rate: 1, statuses: [503], pathPattern: 'courses' });
    const res = await s.relay().request('/v1/courses/1', { headers: backend });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([503, 'upstream_unavailable']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 429 throttled, and quota_exceeded for the daily quota, with Retry-After', async () => {
    await control(s.emu, 'faults', { rate: 1, statuses: [429], pathPattern: 'courses' });
    const throttled = await s.relay().request('/v1/courses/1', { headers: backend });
    expect([throttled.status, ((await throttled.json()) as { code: string }).code]).toEqual([429, 'throttled']);
    expect(throttled.headers.get('retry-after')).toBeTruthy();
    await s.emu.fetch('http://emulator.test/_emulator/faults', { method: 'DELETE' });
    await control(s.emu, `usage-plans/${s.settings.PARTNER_LEARNING_API_KEY}`, { ratePerSecond: 1000, burst: 1000, dailyQuota: 1 });
    const app = s.relay();
    await app.request('/v1/courses/1', { headers: backend });
    const quota = await app.request('/v1/courses/2', { headers: backend });
    expect([quota.status, ((await quota.json()) as { code: string }).code]).toEqual([429, 'quota_exceeded']);
    expect(quota.headers.get('retry-after')).toBeTruthy();
  });

  it("passes the service's 403 missing_scope on for a read-only client", async () => {
    const env = s.emu.partners('http://emulator.test')[0]!.environments.sandbox;
    const ro = env.clients.find((c) => !c.scopes.includes('partner-api/write'))!;
    const app = s.relay({}, {
      PARTNER_LEARNING_CLIENT_ID: ro.clientId, PARTNER_LEARNING_CLIENT_SECRET: ro.clientSecret, PARTNER_LEARNING_SCOPES: 'partner-api/read',
    });
    const res = await app.request('/v1/users/register', {
      method: 'POST', headers: { ...backend, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ro@example.com', firstName: 'R', lastName: 'O', organizationId: 1 }),
    });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([403, 'missing_scope']);
  });

  it('answers a malformed JSON body with 400 before going upstream', async () => {
    const res = await s.relay().request('/v1/users/register', { method: 'POST', headers: { ...backend, 'content-type': 'application/json' }, body: '{' });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([400, 'validation_failed']);
  });
});
