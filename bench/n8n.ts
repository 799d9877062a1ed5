/**
 * Benchmark: the n8n node registering 500 learners (500 items) on n8n-core's WorkflowExecute with n8n's real HTTP
 * helpers, against the emulator on a socket with a 20 req/s plan. Reports token requests (target 1), the share of
 * the plan used (successful API requests per second over 20; target >= 90 %) and items failed by a 429 (target 0).
 */
import { startEmulatorServer } from '../emulator/server.ts';
import { outputJson, runChain, type StoredCredential } from '../test/n8n/support/workflow-harness.ts';
import type { BenchResult } from './support.ts';

const LEARNERS = 500;
const RATE = 20;

/** @returns Three table rows. */
export async function n8nRegisterBench(): Promise<BenchResult[]> {
  const server = await startEmulatorServer({ port: 0, seed: 808 });
  try {
    const sandbox = server.emulator.partners(server.origin)[0]!.environments.sandbox;
    await fetch(`${server.origin}/_emulator/usage-plans/${sandbox.apiKey}`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ratePerSecond: RATE, burst: RATE, dailyQuota: 1_000_000 }),
    });
    const stored: StoredCredential = {
      tokenRequests: 0,
      data: {
        tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients[0]!.clientId,
        clientSecret: sandbox.clients[0]!.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite', accessToken: '',
      },
    };
    const started = performance.now();
    const run = await runChain(stored, [{
      name: 'Register',
      onError: 'continueRegularOutput',
      parameters: {
        resource: 'user', operation: 'register', email: "={{ 'bench.' + $json.i + '@example.com' }}", firstName: 'Bench',
        lastName: '={{ String($json.i) }}', organizationId: { __rl: true, mode: 'id', value: '1' }, additionalFields: {},
      },
    }], LEARNERS);
    const seconds = (performance.now() - started) / 1000;
    const out = outputJson(run, 'Register');
    const registered = out.filter((item) => typeof item.uuid === 'string').length;
    const throttledFailures = out.filter((item) => item.code === 'throttled').length;
    const share = registered / (seconds * RATE);
    const details = { learners: LEARNERS, registered, seconds, tokenRequests: stored.tokenRequests, throttledFailures, rate: RATE };
    return [
      { id: 'n8n-1', name: `n8n node: token requests for ${LEARNERS} registrations`, result: String(stored.tokenRequests), target: '1', met: stored.tokenRequests === 1, details },
      { id: 'n8n-2', name: `n8n node: share of a ${RATE} req/s plan used`, result: `${(share * 100).toFixed(0)} % (${registered} in ${seconds.toFixed(1)} s)`, target: '>= 90 %', met: share >= 0.9, details },
      { id: 'n8n-3', name: 'n8n node: items failed by a 429', result: String(throttledFailures), target: '0', met: throttledFailures === 0, details },
    ];
  } finally {
    await server.close();
  }
}
