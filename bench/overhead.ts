/**
 * Benchmark 2: what the client adds per call (validation, token cache, limiter, ky, error mapping, JSON parsing)
 * over a raw fetch with the same headers, both against the in-process emulator so the network is not measured.
 * A third arm, ky alone with the same fetch adapter, shows how much of the overhead is the HTTP library's.
 */
import ky from 'ky';
import { MemoryTokenStore, createClient } from '../core/index.ts';
import { inProcessEmulator, inProcessOrigin } from './in-process.ts';
import { clientOptions, fixed, mean, median, publishedCourseId, sandboxOf, type BenchResult } from './support.ts';

const perSide = 2000;
const rounds = 20;
const warmup = 300;

/** A token fetched once by hand, for the raw side. */
async function fetchToken(fetchImpl: typeof fetch, env: ReturnType<typeof sandboxOf>): Promise<string> {
  const basic = btoa(`${env.clientId}:${env.clientSecret}`);
  const response = await fetchImpl(env.tokenUrl, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=partner-api%2Fread%20partner-api%2Fwrite',
  });
  if (!response.ok) throw new Error(`token request answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Times `count` sequential runs of `call`, appending per-call milliseconds to `into`. */
async function timeCalls(count: number, call: () => Promise<unknown>, into: number[]): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await call();
    into.push(performance.now() - started);
  }
}

/**
 * Alternates rounds of raw `emu.fetch` + JSON parse and `client.courses.get(id)` (2,000 calls each after warm-up)
 * and compares medians and means.
 *
 * @returns The table row.
 */
export async function overheadBench(): Promise<BenchResult> {
  const { emu, fetch: fetchImpl, partner } = await inProcessEmulator(102);
  const env = sandboxOf(partner);
  const courseId = await publishedCourseId(fetchImpl, inProcessOrigin);
  const token = await fetchToken(fetchImpl, env);
  const url = `${env.baseUrl}/courses/${courseId}`;
  const headers = { authorization: `Bearer ${token}`, 'x-api-key': env.apiKey, accept: 'application/ld+json, application/json' };
  const raw = async (): Promise<unknown> => {
    const response = await emu.fetch(new Request(url, { headers }));
    if (response.status !== 200) throw new Error(`raw GET answered ${response.status}`);
    return response.json();
  };
  const client = createClient(
    clientOptions(partner, fetchImpl, {
      tokenStore: new MemoryTokenStore(),
      rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
    }),
  );
  const viaClient = (): Promise<unknown> => client.courses.get(courseId);
  const http = ky.create({ fetch: fetchImpl, retry: 0, throwHttpErrors: false, headers });
  const viaKy = (): Promise<unknown> => http.get(url).json();

  const arms = [
    { call: raw, ms: [] as number[] },
    { call: viaKy, ms: [] as number[] },
    { call: viaClient, ms: [] as number[] },
  ];
  const ignored: number[] = [];
  for (const arm of arms) await timeCalls(warmup, arm.call, ignored);
  const perRound = perSide / rounds;
  for (let round = 0; round < rounds; round += 1) {
    // Rotate who goes first each round so no arm always runs on a warmer (or more littered) heap.
    for (let i = 0; i < arms.length; i += 1) {
      const arm = arms[(round + i) % arms.length];
      if (arm) await timeCalls(perRound, arm.call, arm.ms);
    }
  }
  const [rawMs, kyMs, clientMs] = arms.map((a) => a.ms) as [number[], number[], number[]];
  const ratioMedian = median(clientMs) / median(rawMs);
  const ratioMean = mean(clientMs) / mean(rawMs);
  const kyRatioMedian = median(kyMs) / median(rawMs);
  return {
    id: '2',
    name: `Per-call overhead vs raw fetch (${perSide.toLocaleString('en')} sequential calls each, in-process)`,
    result:
      `median ${fixed(ratioMedian)}x (client ${fixed(median(clientMs), 3)} ms, raw ${fixed(median(rawMs), 3)} ms); ` +
      `mean ${fixed(ratioMean)}x (client ${fixed(mean(clientMs), 3)} ms, raw ${fixed(mean(rawMs), 3)} ms); ` +
      `ky alone: median ${fixed(kyRatioMedian)}x`,
    target: '<= 1.15x',
    met: ratioMedian <= 1.15,
    details: {
      calls: perSide,
      rounds,
      medianClientMs: median(clientMs),
      medianRawMs: median(rawMs),
      meanClientMs: mean(clientMs),
      meanRawMs: mean(rawMs),
      medianKyMs: median(kyMs),
      meanKyMs: mean(kyMs),
      kyRatioMedian,
      ratioMedian,
      ratioMean,
    },
  };
}
