/**
 * One n8n worker process of bench rows n8n-5 and n8n-5t: registers RATE_LEARNERS learners through the node on
 * n8n-core's WorkflowExecute (n8n's own engine and HTTP helpers; the node's limiter in this process alone, or, with
 * RATE_LIMITER_URL, the limiter host's line shared with the other worker), after a
 * `go` line on stdin, then prints a JSON line with how the items ended.
 */
import { outputJson, runChain, type StoredCredential } from '../test/n8n/support/workflow-harness.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`n8n-process: ${name} is missing`);
  return value;
};

const learners = Number(env('RATE_LEARNERS'));
const prefix = env('RATE_PREFIX');
const stored: StoredCredential = {
  tokenRequests: 0,
  data: {
    tokenUrl: env('RATE_TOKEN_URL'), baseUrl: env('RATE_BASE_URL'), clientId: env('RATE_CLIENT_ID'),
    clientSecret: env('RATE_CLIENT_SECRET'), apiKey: env('RATE_API_KEY'), scope: 'readWrite', accessToken: '',
    // Row n8n-5t: the credential's Limiter Host URL (empty: the process paces alone, row n8n-5).
    limiterUrl: process.env.RATE_LIMITER_URL ?? '',
  },
};
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const started = performance.now();
const run = await runChain(stored, [{
  name: 'Register',
  onError: 'continueRegularOutput',
  parameters: {
    resource: 'user', operation: 'register', email: `={{ '${prefix}.' + $json.i + '@example.com' }}`, firstName: 'Bench',
    lastName: '={{ String($json.i) }}', organizationId: { __rl: true, mode: 'id', value: '1' }, additionalFields: {},
  },
}], learners);
const out = outputJson(run, 'Register');
process.stdout.write(`${JSON.stringify({
  registered: out.filter((item) => typeof item.uuid === 'string').length,
  failed: out.filter((item) => typeof item.uuid !== 'string').length,
  throttled: out.filter((item) => item.code === 'throttled').length,
  tokenRequests: stored.tokenRequests,
  seconds: (performance.now() - started) / 1000,
})}\n`);
process.exit(0);
