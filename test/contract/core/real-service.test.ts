/**
 * A read-only smoke of the same client against a real Partner Learning Service (sandbox), when its credentials are
 * in the environment: ping, a token, the catalog lists, pagination. Without them it says once that it skipped.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../core/index.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';

const VARIABLES = [
  'PARTNER_LEARNING_TOKEN_URL',
  'PARTNER_LEARNING_BASE_URL',
  'PARTNER_LEARNING_CLIENT_ID',
  'PARTNER_LEARNING_CLIENT_SECRET',
  'PARTNER_LEARNING_API_KEY',
] as const;

const missing = VARIABLES.filter((name) => !process.env[name]);
const configured = missing.length === 0;

if (!configured) {
  console.info(`core contract, real service: skipped because ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set`);
}

function realClient(): PartnerLearningClient {
  return createClient({
    tokenUrl: process.env.PARTNER_LEARNING_TOKEN_URL!,
    baseUrl: process.env.PARTNER_LEARNING_BASE_URL!,
    clientId: process.env.PARTNER_LEARNING_CLIENT_ID!,
    clientSecret: process.env.PARTNER_LEARNING_CLIENT_SECRET!,
    apiKey: process.env.PARTNER_LEARNING_API_KEY!,
    scopes: ['partner-api/read'],
    environment: 'sandbox',
  });
}

describe.runIf(configured)('real service, read-only smoke (runs only when all PARTNER_LEARNING_* variables are set)', () => {
  it('ping answers healthy', async () => {
    expect((await realClient().ping()).status).toBe('healthy');
  });

  it('a token is obtained and the catalog lists answer', async () => {
    const client = realClient();
    const organizations = await client.organizations.list().toArray({ max: 50 });
    expect(organizations.length).toBeGreaterThan(0);
    await expect(client.categories.list().toArray({ max: 50 })).resolves.toBeInstanceOf(Array);
    const courses = await client.courses.list().toArray({ max: 50 });
    expect(Array.isArray(courses)).toBe(true);
    const modules = await client.modules.list().toArray({ max: 50 });
    for (const module of modules) {
      expect(module.passingScore === null || (module.passingScore >= 0 && module.passingScore <= 100)).toBe(true);
    }
  });

  it('pagination with pages of 2 visits distinct items, agreeing with one large page', async () => {
    const client = realClient();
    const small: number[] = [];
    for await (const module of client.modules.list({ pageSize: 2 })) {
      small.push(module.id);
      if (small.length >= 10) break;
    }
    expect(new Set(small).size).toBe(small.length);
    const large = await client.modules.list({ pageSize: 100 }).toArray({ max: small.length });
    expect(large.map((m) => m.id)).toEqual(small);
  });
});
