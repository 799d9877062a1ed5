/**
 * One "process" of the socket rate benchmark (bench/rate-sweep.ts): a client with the default rate (or a configured
 * one) whose callers each send one call after another for a while (or until RATE_CALLS calls were made), then a
 * JSON line with how the calls ended.
 * Run as `node --import tsx bench/rate-client.ts` with its settings in the environment, so several can share a key.
 */
import { createClient, createSharedLimiter, MemoryTokenStore } from '../core/index.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`rate-client: ${name} is missing`);
  return value;
};

const callers = Number(env('RATE_CALLERS'));
const durationMs = Number(env('RATE_DURATION_MS'));
const organizationId = Number(env('RATE_ORGANIZATION_ID'));
const rate = process.env['RATE_LIMIT'];
/** With RATE_CALLS, the callers stop once that many calls were made between them (the duration stays a deadline). */
const calls = Number(process.env['RATE_CALLS'] ?? 0);
/** With RATE_SHARED_URL, the process's line and pace are the limiter host's there (row 7t), shared with the others. */
const shared = process.env['RATE_SHARED_URL'];
const limitOf = rate ? JSON.parse(rate) as { requestsPerSecond: number; burst: number } : undefined;
const client = createClient({
  tokenUrl: env('RATE_TOKEN_URL'), baseUrl: env('RATE_BASE_URL'), clientId: env('RATE_CLIENT_ID'),
  clientSecret: env('RATE_CLIENT_SECRET'), apiKey: env('RATE_API_KEY'), environment: 'sandbox',
  tokenStore: new MemoryTokenStore(),
  ...(limitOf && !shared ? { rateLimit: limitOf } : {}),
  ...(shared ? {
    limiter: createSharedLimiter({
      url: shared, apiKey: env('RATE_API_KEY'), ...(limitOf ? { rateLimit: limitOf } : {}),
      onHostError: (error) => process.stderr.write(`${error.message}\n`),
    }),
  } : {}),
});
// The token first, so the measured calls are API calls only: one read, made before the plan is set. With RATE_COLD
// the callers' first call is the client's first (its token comes with it), as a script that calls at once would.
if (!process.env['RATE_COLD']) await client.organizations.get(organizationId);
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));

// Calls still waiting for their turn when the run ends are stopped, not counted.
const stop = AbortSignal.timeout(durationMs);
let succeeded = 0;
let failed = 0;
let made = 0;
const codes: Record<string, number> = {};
const loop = async (): Promise<void> => {
  while (!stop.aborted && (calls === 0 || made < calls)) {
    made += 1;
    try {
      await client.organizations.get(organizationId, { signal: stop });
      succeeded += 1;
    } catch (error) {
      if (stop.aborted) return;
      failed += 1;
      const code = (error as { code?: string }).code ?? 'unknown';
      codes[code] = (codes[code] ?? 0) + 1;
    }
  }
};
await Promise.all(Array.from({ length: callers }, loop));
process.stdout.write(`${JSON.stringify({ succeeded, failed, codes })}\n`);
process.exit(0);
