/**
 * Rows n8n-7 and n8n-7t: the issue's own shape, two `n8n execute` processes of a real n8n (2.41.1, the cached install
 * of scripts/n8n-install.sh), each running the same 500-learner workflow against one 20/20 plan. Each process has its
 * own user folder (its own database and copy of the credential; queue-mode workers share a database, which changes
 * nothing here: the limiter lives in the process) and boots on its own, so their first calls do not line up as the
 * harness rows' (n8n-5) do. With `shared`, the credential's Limiter Host URL names one limiter host served here.
 * About three minutes a run (two n8n installs of the package, four imports, two boots).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEmulatorServer } from '../emulator/server.ts';
import { executionJson } from '../test/n8n/e2e-checks.ts';
import { freePort } from '../test/support/free-port.ts';
import { serveLimiterHost } from '../test/support/limiter-host.ts';
import { requestLog, type BenchResult } from './support.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const LEARNERS = 500;
const RATE = 20;

/** The workflow: 500 items (a Set node's array, split out), each registered, failures kept as items. */
function workflow(id: string, prefix: string): unknown {
  const credentials = { partnerLearningApi: { id: 'plBenchCred00001', name: 'Partner Learning bench' } };
  return {
    id, name: `bench ${prefix}`, active: false, settings: { executionOrder: 'v1' },
    nodes: [
      { id: `${id}-1`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      {
        id: `${id}-2`, name: 'Learners', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0],
        parameters: { mode: 'raw', jsonOutput: `={{ { "i": Array.from({ length: ${LEARNERS} }, (_, i) => i) } }}` },
      },
      { id: `${id}-3`, name: 'Each', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: 'i' } },
      {
        id: `${id}-4`, name: 'Register', type: 'n8n-nodes-partner-learning.partnerLearning', typeVersion: 1, position: [600, 0],
        onError: 'continueRegularOutput', credentials,
        parameters: {
          resource: 'user', operation: 'register', email: `={{ '${prefix}.' + $json.i + '@example.com' }}`, firstName: 'Bench',
          lastName: '={{ String($json.i) }}', organizationId: { __rl: true, mode: 'id', value: '1' }, additionalFields: {},
        },
      },
    ],
    connections: {
      Start: { main: [[{ node: 'Learners', type: 'main', index: 0 }]] },
      Learners: { main: [[{ node: 'Each', type: 'main', index: 0 }]] },
      Each: { main: [[{ node: 'Register', type: 'main', index: 0 }]] },
    },
  };
}

/** One n8n user folder with the package installed, the credential and the workflow imported. */
async function worker(n8nHome: string, tarball: string, credential: Record<string, string>, prefix: string) {
  const folder = await mkdtemp(join(tmpdir(), `pl-n8n-bench-${prefix}-`));
  const env = {
    ...process.env, PATH: `${join(n8nHome, 'node24', 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    N8N_USER_FOLDER: folder, N8N_ENCRYPTION_KEY: 'partner-learning-bench-only', N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false', N8N_SSRF_PROTECTION_ENABLED: 'false', N8N_RUNNERS_BROKER_PORT: String(await freePort()),
  };
  const n8n = join(n8nHome, 'app', 'node_modules', '.bin', 'n8n');
  const nodes = join(folder, '.n8n', 'nodes');
  await mkdir(nodes, { recursive: true });
  await writeFile(join(nodes, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  await run('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: nodes, env });
  const id = `plBenchWf${prefix.padEnd(7, '0')}`;
  await writeFile(join(folder, 'credentials.json'), JSON.stringify([{ id: 'plBenchCred00001', name: 'Partner Learning bench', type: 'partnerLearningApi', data: credential }]));
  await writeFile(join(folder, 'workflow.json'), JSON.stringify(workflow(id, prefix)));
  await run(n8n, ['import:credentials', `--input=${join(folder, 'credentials.json')}`], { cwd: folder, env });
  await run(n8n, ['import:workflow', `--input=${join(folder, 'workflow.json')}`], { cwd: folder, env });
  /** Runs the workflow; resolves with the items that came out of Register without a learner's uuid. */
  const execute = async (): Promise<{ failed: number; items: number }> => {
    const file = join(folder, 'execute.txt');
    const out = await open(file, 'w');
    try {
      const child = spawn(n8n, ['execute', `--id=${id}`, '--rawOutput'], { cwd: folder, env, stdio: ['ignore', out.fd, out.fd] });
      await new Promise((done) => child.once('exit', done));
    } finally {
      await out.close();
    }
    const items = executionJson(await readFile(file, 'utf8')).data.resultData.runData['Register']?.[0]?.data?.main?.[0] ?? [];
    return { failed: items.filter((item) => typeof item.json.uuid !== 'string').length, items: items.length };
  };
  return { execute, remove: () => rm(folder, { recursive: true, force: true }) };
}

/**
 * @param shared Whether the credential names one limiter host (row n8n-7t).
 * @returns One table row.
 */
export async function n8nCliTwoProcessBench(shared = false): Promise<BenchResult> {
  const n8nHome = (await run('bash', [join(root, 'scripts/n8n-install.sh'), '2.41.1'], { cwd: root, maxBuffer: 1 << 24 })).stdout.trim();
  await run(process.execPath, [join(root, 'scripts/n8n-build.mjs')], { cwd: root });
  const packDir = await mkdtemp(join(tmpdir(), 'pl-n8n-bench-pack-'));
  const tarball = join(packDir, (await run('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: root })).stdout.trim().split('\n').pop()!);
  const server = await startEmulatorServer({ port: 0, seed: 811 });
  const host = shared ? await serveLimiterHost() : undefined;
  const workers: Array<Awaited<ReturnType<typeof worker>>> = [];
  try {
    const sandbox = server.emulator.partners(server.origin)[0]!.environments.sandbox;
    const credential = {
      tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients[0]!.clientId,
      clientSecret: sandbox.clients[0]!.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite', ...(host ? { limiterUrl: host.url } : {}),
    };
    for (const prefix of ['clia', 'clib']) workers.push(await worker(n8nHome, tarball, credential, prefix));
    await fetch(`${server.origin}/_emulator/usage-plans/${sandbox.apiKey}`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ratePerSecond: RATE, burst: RATE, dailyQuota: 1_000_000 }),
    });
    await fetch(`${server.origin}/_emulator/requests`, { method: 'DELETE' });
    const runs = await Promise.all(workers.map((w) => w.execute()));
    const api = (await requestLog(fetch, server.origin)).filter((r) => r.path.endsWith('/users/register'));
    const at = (r: (typeof api)[number]) => Date.parse(r.at);
    const seconds = api.length > 1 ? (at(api.at(-1)!) - at(api[0]!)) / 1000 : 0;
    const registered = api.filter((r) => r.status === 201 || r.status === 200).length;
    const throttled = api.filter((r) => r.status === 429).length;
    const failed = runs.reduce((n, r) => n + r.failed, 0) + runs.reduce((n, r) => n + (LEARNERS - r.items), 0);
    const share = registered / Math.max(1, seconds * RATE);
    return {
      id: shared ? 'n8n-7t' : 'n8n-7',
      name: `two \`n8n execute\` processes (n8n 2.41.1) × ${LEARNERS} registrations on one ${RATE}/${RATE} plan${shared ? ', one limiter host' : ', each alone'}`,
      result: `${(share * 100).toFixed(0)} % of the plan from the first registration to the last (${registered} in ${seconds.toFixed(1)} s); 429s ${(100 * throttled / Math.max(1, api.length)).toFixed(1)} % of answers; ${failed} items failed`,
      target: '>= 85 %, 429s < 3 %, 0 items failed',
      met: share >= 0.85 && throttled / Math.max(1, api.length) < 0.03 && failed === 0,
      details: { runs, seconds, registerRequests: api.length, throttled },
    };
  } finally {
    await Promise.all(workers.map((w) => w.remove()));
    await host?.close();
    await server.close();
    await rm(packDir, { recursive: true, force: true });
  }
}
