/**
 * Benchmark: a 100 MiB transcript PDF (the emulator's `pdf-padding`) to a binary item in a real n8n 2.41.1
 * (`n8n execute`, filesystem binary mode), installed by scripts/n8n-install.sh into the cache outside the clone and
 * given this package the way n8n installs a community package. Reports the peak RSS of the n8n process running the
 * workflow with the download over the peak of the same workflow without it (the baseline), runs alternating, the
 * median of each. The emulator runs in this process, so its memory is not counted.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '../core/index.ts';
import { startEmulatorServer } from '../emulator/server.ts';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../test/n8n/e2e-checks.ts';
import { median } from './support.ts';
import type { BenchResult } from './support.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const PDF_BYTES = 100 * 1024 * 1024;
const RUNS = 3;
const TARGET_MB = 64;
const MB = 1024 * 1024;

const ROW = { id: 'n8n-4', name: 'n8n node: 100 MiB PDF to a binary item (real n8n, filesystem mode), peak RSS over baseline', target: `< ${TARGET_MB} MB` };

/** The install script's n8n home, or why there is none (then the row is skipped, not failed). */
function n8nHome(): { home: string } | { reason: string } {
  process.stderr.write('bench: n8n-binary: installing n8n 2.41.1 (cached after the first time)…\n');
  const result = spawnSync('bash', [join(root, 'scripts', 'n8n-install.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const home = result.stdout?.trim().split('\n').at(-1);
  if (result.status !== 0 || !home) return { reason: `scripts/n8n-install.sh failed (exit ${result.status ?? result.signal}); see its output above` };
  return { home };
}

/** Records the process's peak RSS (getrusage, in KiB) where the bench can read it, keyed by pid. */
const PEAK_RSS_PRELOAD = `
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  try { writeFileSync(require('node:path').join(process.env.PL_PEAK_RSS_DIR, 'peak-' + process.pid), String(process.resourceUsage().maxRSS)); } catch {}
});
`;

/** What the download node of a workflow is: none (baseline), ours, or n8n's own HTTP Request node (for comparison). */
type Download = 'none' | 'node' | 'httpRequest';

/** n8n's HTTP Request node fetching the same PDF as a file, with the headers our credential would add. */
function httpRequestNode(url: string, headers: Record<string, string>): object {
  return {
    parameters: {
      url, sendHeaders: true,
      headerParameters: { parameters: Object.entries(headers).map(([name, value]) => ({ name, value })) },
      options: { response: { response: { responseFormat: 'file', outputPropertyName: 'data' } } },
    },
    id: 'http', name: 'PDF', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, position: [440, 0],
  };
}

function workflow(id: string, userId: string, download: Download, http?: { url: string; headers: Record<string, string> }): object {
  const credentials = { partnerLearningApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
  const type = 'n8n-nodes-partner-learning.partnerLearning';
  const nodes: object[] = [
    { parameters: {}, id: `${id}-t`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
    { parameters: { resource: 'user', operation: 'get', userId }, id: `${id}-u`, name: 'Learner', type, typeVersion: 1, position: [220, 0], credentials },
  ];
  const connections: Record<string, object> = { Start: { main: [[{ node: 'Learner', type: 'main', index: 0 }]] } };
  if (download === 'node') {
    nodes.push({
      parameters: { resource: 'transcript', operation: 'downloadPdf', userId, binaryPropertyName: 'data' },
      id: `${id}-p`, name: 'PDF', type, typeVersion: 1, position: [440, 0], credentials,
    });
  } else if (download === 'httpRequest') {
    nodes.push(httpRequestNode(http!.url, http!.headers));
  }
  if (download !== 'none') connections.Learner = { main: [[{ node: 'PDF', type: 'main', index: 0 }]] };
  return { id, name: id, nodes, connections, active: false, settings: {} };
}

/** The bytes the PDF node reports in the execution n8n prints (`--rawOutput`), to prove the download happened. */
function pdfBytes(output: string): number | undefined {
  const start = output.search(/^\{$/m);
  const end = output.lastIndexOf('\n}');
  if (start < 0 || end < 0) return undefined;
  const execution = JSON.parse(output.slice(start, end + 2)) as {
    data: { resultData: { runData: Record<string, Array<{ data?: { main?: Array<Array<{ binary?: { data?: { bytes?: number } } }>> } }>> } };
  };
  return execution.data.resultData.runData.PDF?.[0]?.data?.main?.[0]?.[0]?.binary?.data?.bytes;
}

/** @returns Our row and n8n's HTTP Request node's beside it; skipped with the reason when n8n cannot be installed here. */
export async function n8nBinaryBench(): Promise<BenchResult[]> {
  const installed = n8nHome();
  if ('reason' in installed) return [{ ...ROW, result: `skipped: ${installed.reason}`, met: null, details: { skipped: installed.reason } }];
  const { home } = installed;
  const node = join(home, 'node24', 'node_modules', '.bin', 'node');
  const n8nScript = join(home, 'app', 'node_modules', 'n8n', 'bin', 'n8n');
  const folder = await mkdtemp(join(tmpdir(), 'pl-n8n-bench-'));
  const server = await startEmulatorServer({ port: 0, seed: 809 });
  try {
    await writeFile(join(folder, 'peak-rss.cjs'), PEAK_RSS_PRELOAD);
    const env = {
      ...process.env,
      PATH: `${join(home, 'node24', 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
      N8N_USER_FOLDER: folder,
      N8N_ENCRYPTION_KEY: 'partner-learning-bench-only',
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_SSRF_PROTECTION_ENABLED: 'false',
      N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
      PL_PEAK_RSS_DIR: folder,
    };
    /** Runs the n8n CLI (output to a file: n8n exits right after printing, which can cut a pipe short). */
    const n8n = async (args: string[]): Promise<{ output: string; peakKiB: number }> => {
      const file = join(folder, 'cli-output.txt');
      const out = await open(file, 'w');
      try {
        const child = spawn(node, ['--require', join(folder, 'peak-rss.cjs'), n8nScript, ...args], { env, cwd: folder, stdio: ['ignore', out.fd, out.fd] });
        const code = await new Promise<number | null>((done, fail) => {
          child.once('error', fail);
          child.once('exit', done);
        });
        const output = await readFile(file, 'utf8');
        if (code !== 0) throw new Error(`n8n ${args[0]} exited with ${code}: ${output.slice(-1500)}`);
        return { output, peakKiB: Number(await readFile(join(folder, `peak-${child.pid}`), 'utf8')) };
      } finally {
        await out.close();
      }
    };

    // The package as n8n installs a community package: built, packed, installed without peers or scripts.
    await run(process.execPath, [join(root, 'scripts', 'n8n-build.mjs')], { cwd: root });
    const packed = (await run('npm', ['pack', '--silent', '--pack-destination', folder], { cwd: root })).stdout.trim().split('\n').at(-1)!;
    const nodesDir = join(folder, '.n8n', 'nodes');
    await mkdir(nodesDir, { recursive: true });
    await writeFile(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
    await run('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', join(folder, packed)], { cwd: nodesDir, env });

    const sandbox = server.emulator.partners(server.origin)[0]!.environments.sandbox;
    const data = {
      tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients[0]!.clientId,
      clientSecret: sandbox.clients[0]!.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite',
    };
    await writeFile(join(folder, 'credentials.json'), JSON.stringify([{ id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: 'partnerLearningApi', data }]));
    await n8n(['import:credentials', `--input=${join(folder, 'credentials.json')}`]);

    const client = createClient({
      tokenUrl: data.tokenUrl, baseUrl: data.baseUrl, clientId: data.clientId, clientSecret: data.clientSecret, apiKey: data.apiKey,
      environment: 'sandbox',
    });
    const learner = await client.users.register({ email: 'pdf.bench@example.com', firstName: 'Pdf', lastName: 'Bench', organizationId: 1 });
    const put = await fetch(`${server.origin}/_emulator/pdf-padding`, {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bytes: PDF_BYTES }),
    });
    if (!put.ok) throw new Error(`the emulator refused the PDF padding: ${put.status}`);
    const token = await fetch(data.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${data.clientId}:${data.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'partner-api/read partner-api/write' }),
    }).then(async (response) => ((await response.json()) as { access_token: string }).access_token);
    const http = {
      url: `${data.baseUrl}/transcript/pdf`,
      headers: { Authorization: `Bearer ${token}`, 'x-api-key': data.apiKey, 'X-User-ID': learner.uuid, Accept: 'application/pdf' },
    };
    const variants = [['plBenchBaseline1', 'none'], ['plBenchPdf000001', 'node'], ['plBenchHttp00001', 'httpRequest']] as const;
    const peaks: Record<Download, number[]> = { none: [], node: [], httpRequest: [] };
    for (const [id, download] of variants) {
      const file = join(folder, `${id}.json`);
      await writeFile(file, JSON.stringify(workflow(id, learner.uuid, download, http)));
      await n8n(['import:workflow', `--input=${file}`]);
    }

    let bytes: number | undefined;
    for (let i = 0; i < RUNS; i++) {
      for (const [id, download] of variants) {
        const result = await n8n(['execute', `--id=${id}`, '--rawOutput']);
        if (download !== 'none') {
          bytes = pdfBytes(result.output);
          if (bytes === undefined || bytes < PDF_BYTES * 0.99) throw new Error(`${download}: no padded PDF of about ${PDF_BYTES} bytes in the output (got ${bytes ?? 'nothing'})`);
        }
        peaks[download].push(result.peakKiB * 1024);
      }
    }
    const mb = (n: number) => (n / MB).toFixed(1);
    const over = (download: Download) => median(peaks[download]) - median(peaks.none);
    const summary = (download: Download) =>
      `+${mb(over(download))} MB (peak RSS ${mb(median(peaks[download]))} vs ${mb(median(peaks.none))} MB, medians of ${RUNS}; ${mb(bytes!)} MB binary on disk)`;
    const details = { pdfBytes: bytes, runs: RUNS, peakRss: peaks };
    return [
      { ...ROW, result: summary('node'), met: over('node') < TARGET_MB * MB, details },
      {
        id: 'n8n-4b', name: "n8n's own HTTP Request node, the same PDF as a file, same n8n: peak RSS over the same baseline",
        result: summary('httpRequest'), target: 'report only', met: null, details,
      },
    ];
  } finally {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
}
