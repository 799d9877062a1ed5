/**
 * `npm run bench [-- <words>]`: runs every benchmark (or those whose name contains one of the words) in turn, prints a Markdown table and writes `bench/results/latest.{md,json}`.
 * Targets are reported (met / not met), never asserted: the exit code is 0 unless a benchmark could not run.
 */
import { clientFaultsBench } from './client-faults.ts';
import { memoryBench } from './memory.ts';
import { n8nBinaryBench } from './n8n-binary.ts';
import { n8nRegisterBench, n8nTwoProcessBench } from './n8n.ts';
import { n8nCliTwoProcessBench } from './n8n-cli.ts';
import { overheadBench } from './overhead.ts';
import { relayBench } from './relay.ts';
import { relayFaultsBench } from './relay-faults.ts';
import { relayProfileBench } from './relay-profile.ts';
import { relaySharedKeyBench } from './relay-shared.ts';
import { machine, toMarkdown, writeResults } from './report.ts';
import { rateBench } from './rate.ts';
import { coldStartBench, fewCallersBench, idleStartBench, justAfterOneCallBench, shortFloorsBench } from './rate-cold-start.ts';
import { latencyBench } from './rate-latency.ts';
import { processLeavesBench } from './rate-leave.ts';
import { offGridBench } from './rate-offgrid.ts';
import { planChangeBench } from './rate-plan-change.ts';
import { randomPlansBench } from './rate-random.ts';
import { smallBurstBench } from './rate-small-burst.ts';
import { hostBehindProxyBench, sharedLimiterBench } from './rate-shared.ts';
import { splitBench } from './rate-split.ts';
import { busyMachineBench, rateSweepBench } from './rate-sweep.ts';
import { slowWorkersBench, workersBench } from './rate-workers.ts';
import type { BenchResult } from './support.ts';
import { throughputBench } from './throughput.ts';
import { tokenRequestsBench } from './token-requests.ts';

/** Rows n8n-6 and n8n-6t: a slow plan with a burst of one call, which workers learning alone share badly. */
const ONE_CALL_PLAN = { rate: 5, burst: 1, learners: 100 };

const benches: [string, () => Promise<BenchResult | BenchResult[]>][] = [
  ['token requests', tokenRequestsBench],
  ['per-call overhead', overheadBench],
  ['throughput', throughputBench],
  ['memory', memoryBench],
  ['client under faults', clientFaultsBench],
  ['edge relay', relayBench],
  ['edge relay under faults', relayFaultsBench],
  ['edge relay CPU profile', relayProfileBench],
  ['edge relay, two processes on one key', relaySharedKeyBench],
  ['default rate', rateBench],
  ['default rate sweep', rateSweepBench],
  ['default rate off the sweep grid', offGridBench],
  ['default rate on small buckets', smallBurstBench],
  ['default rate when a process leaves', processLeavesBench],
  ['default rate, split between processes', splitBench],
  ['default rate, workers through their items', workersBench],
  ['default rate, workers of one caller on slow plans', slowWorkersBench],
  ['default rate when the plan changes', planChangeBench],
  ['default rate at random plans over sockets', randomPlansBench],
  ['shared limiter host', sharedLimiterBench],
  ['a limiter host behind a proxy', hostBehindProxyBench],
  ['default rate at internet latency', latencyBench],
  ['default rate on a busy machine', busyMachineBench],
  ['default rate from a cold start', coldStartBench],
  ['default rate from a cold start, one caller or a small bucket (cold)', fewCallersBench],
  ['default rate from a cold start, floors of 5 and 10 s (cold)', shortFloorsBench],
  ['default rate after an idle spell (cold)', idleStartBench],
  ['default rate just after one call (cold)', justAfterOneCallBench],
  ['n8n node', n8nRegisterBench],
  ['n8n node, two processes', () => n8nTwoProcessBench()],
  ['n8n node, two processes sharing a limiter host', () => n8nTwoProcessBench(true)],
  ['n8n node, two processes on a one-call plan', () => n8nTwoProcessBench(false, ONE_CALL_PLAN)],
  ['n8n node, two processes on a one-call plan sharing a limiter host', () => n8nTwoProcessBench(true, ONE_CALL_PLAN)],
  ['n8n execute, two processes', () => n8nCliTwoProcessBench()],
  ['n8n execute, two processes sharing a limiter host', () => n8nCliTwoProcessBench(true)],
  ['n8n binary', n8nBinaryBench],
];

// `npm run bench -- <words>` runs only the benchmarks whose name contains one of the words.
const only = process.argv.slice(2);
const chosen = only.length ? benches.filter(([name]) => only.some((word) => name.includes(word))) : benches;
const started = performance.now();
const results: BenchResult[] = [];
const errors: string[] = [];
for (const [name, bench] of chosen) {
  process.stderr.write(`bench: ${name}…\n`);
  try {
    results.push(...[await bench()].flat());
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    errors.push(`${name}: ${message}`);
    results.push({ id: '!', name, result: `could not run: ${message.split('\n')[0] ?? ''}`, target: '', met: false, details: {} });
  }
}
const m = machine();
const totalMs = performance.now() - started;
const markdown = toMarkdown(m, results, totalMs);
const dir = await writeResults(markdown, { machine: m, totalMs, results, errors });
process.stdout.write(`${markdown}\n`);
process.stderr.write(`bench: results written to ${dir}\n`);
if (errors.length > 0) {
  process.stderr.write(`${errors.join('\n')}\n`);
  process.exitCode = 1;
}
