/**
 * Benchmark: the n8n node registering 500 learners (500 items) on n8n-core's WorkflowExecute with n8n's real HTTP
 * helpers, against the emulator on a socket with a 20 req/s plan. Reports token requests (target 1), the share of
 * the plan used (successful API requests per second over 20; target >= 90 %) and items failed by a 429 (target 0).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startEmulatorServer } from '../emulator/server.ts';
import { outputJson, runChain, type StoredCredential } from '../test/n8n/support/workflow-harness.ts';
import { serveLimiterHost } from '../test/support/limiter-host.ts';
import { requestLog, type BenchResult } from './support.ts';

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

/** A usage plan and how many learners each worker registers. */
export interface TwoProcessPlan {
  rate: number;
  burst: number;
  learners: number;
}

interface WorkerRun {
  registered: number;
  failed: number;
  throttled: number;
  tokenRequests: number;
  seconds: number;
}

/**
 * Row n8n-5: two n8n worker processes (as in queue mode), each running the same 500-learner workflow, against one
 * 20 req/s plan: each process's node has its own limiter, so they share the plan only through its 429s. Row n8n-5t:
 * the same, with the credential's Limiter Host URL naming one limiter host (served here, as a partner would beside
 * the workers), so both processes' calls wait in its one line.
 *
 * Rows n8n-6 and n8n-6t: the same shapes on a slow plan with a burst of one call (5/1, 100 registrations each), where
 * processes learning alone collide (the README's "Where it falls short").
 *
 * @param shared Whether the workers share a limiter host (rows n8n-5t, n8n-6t).
 * @param plan The usage plan and the learners each worker registers.
 * @returns One table row.
 */
export async function n8nTwoProcessBench(shared = false, plan: TwoProcessPlan = { rate: RATE, burst: RATE, learners: LEARNERS }): Promise<BenchResult> {
  const { rate, burst, learners } = plan;
  const server = await startEmulatorServer({ port: 0, seed: 809 });
  const host = shared ? await serveLimiterHost() : undefined;
  try {
    const sandbox = server.emulator.partners(server.origin)[0]!.environments.sandbox;
    const workers = ['a', 'b'].map((prefix) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/n8n-process.ts'], {
        env: {
          ...process.env, RATE_LEARNERS: String(learners), RATE_PREFIX: `bench-${prefix}`, RATE_TOKEN_URL: sandbox.tokenUrl,
          RATE_BASE_URL: sandbox.baseUrl, RATE_CLIENT_ID: sandbox.clients[0]!.clientId,
          RATE_CLIENT_SECRET: sandbox.clients[0]!.clientSecret, RATE_API_KEY: sandbox.apiKey,
          ...(host ? { RATE_LIMITER_URL: host.url } : {}),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      const ready = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('ready\n')) resolve();
      }));
      const done = once(child, 'exit').then(() => JSON.parse(out.trim().split('\n').pop() ?? '{}') as WorkerRun);
      return { child, ready, done };
    });
    await Promise.all(workers.map((w) => w.ready));
    await fetch(`${server.origin}/_emulator/usage-plans/${sandbox.apiKey}`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ratePerSecond: rate, burst, dailyQuota: 1_000_000 }),
    });
    await fetch(`${server.origin}/_emulator/requests`, { method: 'DELETE' });
    const started = performance.now();
    for (const w of workers) w.child.stdin.write('go\n');
    const runs = await Promise.all(workers.map((w) => w.done));
    const seconds = (performance.now() - started) / 1000;
    const api = (await requestLog(fetch, server.origin)).filter((r) => r.path.endsWith('/users/register'));
    const registered = runs.reduce((sum, r) => sum + r.registered, 0);
    const failed = runs.reduce((sum, r) => sum + r.failed, 0);
    const throttled = api.filter((r) => r.status === 429).length;
    const share = registered / (seconds * rate);
    const details = { runs, seconds, registerRequests: api.length, throttled };
    return {
      id: `${rate === RATE && burst === RATE ? 'n8n-5' : 'n8n-6'}${shared ? 't' : ''}`,
      name: `n8n node, two worker processes × ${learners} registrations on one ${rate}/${burst} plan (req/s / burst)${shared ? ', one limiter host (the credential\'s Limiter Host URL)' : ''}`,
      result: `${(share * 100).toFixed(0)} % of the plan (${registered} in ${seconds.toFixed(1)} s); 429s ${(100 * throttled / Math.max(1, api.length)).toFixed(1)} % of answers; ${failed} items failed; token requests ${runs.map((r) => r.tokenRequests).join(' + ')}`,
      target: '>= 85 %, 429s < 3 %, 0 items failed',
      met: share >= 0.85 && throttled / Math.max(1, api.length) < 0.03 && failed === 0,
      details,
    };
  } finally {
    await host?.close();
    await server.close();
  }
}
