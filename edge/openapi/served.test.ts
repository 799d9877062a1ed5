import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { createRelay } from '../app.ts';

const KEY = 'unit-relay-key-0123456789abcdefghijklmnopqrstu';

function relay(settings: Record<string, string>) {
  const emu = createEmulator();
  return createRelay({ settings, fetch: (input, init) => emu.fetch(input as Request, init) });
}

function settings(): Record<string, string> {
  const env = createEmulator().partners('http://emulator.test')[0]!.environments.sandbox;
  return {
    PARTNER_LEARNING_TOKEN_URL: env.tokenUrl,
    PARTNER_LEARNING_BASE_URL: env.baseUrl,
    PARTNER_LEARNING_CLIENT_ID: env.clients[0]!.clientId,
    PARTNER_LEARNING_CLIENT_SECRET: env.clients[0]!.clientSecret,
    PARTNER_LEARNING_API_KEY: env.apiKey,
    RELAY_KEYS: KEY,
    LEARNER_TOKEN_SECRET: 'unit-learner-secret-0123456789abcdefghijklmno',
  };
}

describe('GET /v1/openapi.json', () => {
  it('serves the OpenAPI 3.1 document without credentials', async () => {
    const res = await relay(settings()).request('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/v1/learner-tokens');
  });

  it('is served even when the relay is misconfigured, and leaks no secret', async () => {
    const bad = { ...settings(), RELAY_KEYS: '' };
    const res = await relay(bad).request('/v1/openapi.json');
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const secret of Object.values(settings()).filter((v) => !v.startsWith('http'))) expect(text).not.toContain(secret);
  });
});
