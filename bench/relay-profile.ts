/**
 * Where the relay's own time goes (issue 15): a CPU profile of the relay's isolate in workerd, taken through
 * workerd's DevTools inspector (Chrome DevTools Protocol: `Profiler.start`/`stop`) while 200 learners make 5 calls
 * each of `GET /v1/me`, in front of the emulator on loopback. Self time is summed per function (the relay runs as
 * one bundle, so per function is what the profile can tell apart) and the top entries are reported; and by module:
 * each frame's line in the bundle is mapped to the source file esbuild names above it (`// core/http/send.ts`), and
 * files are summed by package (`npm:ky`) or by the repository's folder (`core`, `edge`), so a change to one part of the
 * relay shows as that part's share.
 */
import { readFile } from 'node:fs/promises';
import { BENCH_LEARNER_SECRET, relayBenchUpstream } from './relay-setup.ts';
import { bundleRelay, startRelayWorker } from '../scripts/relay-worker.ts';
import { fixed, learnersWithTokens, type BenchResult } from './support.ts';
import { freePort } from '../test/support/free-port.ts';

const LEARNERS = 200;
const CALLS_EACH = 5;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** A minimal CDP session over the inspector's WebSocket. */
async function inspector(port: number): Promise<{ send(method: string, params?: object): Promise<Record<string, unknown>>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string; title?: string }[];
  const target = targets.find((t) => !/internal|entry|loopback/i.test(t.title ?? '')) ?? targets[0];
  if (!target) throw new Error('workerd listed no inspector target');
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
  let next = 1;
  const waiting = new Map<number, (value: Record<string, unknown>) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? {});
  };
  return {
    send: (method, params = {}) => new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    }),
    close: () => socket.close(),
  };
}

/**
 * @param bundle The bundle's text.
 * @returns A frame's line (0-based, as the profile gives it) to its part: `npm:<package>` or the repository folder.
 */
function partsOf(bundle: string): (line: number) => string {
  const starts: [number, string][] = [];
  bundle.split('\n').forEach((text, line) => {
    const file = /^\/\/ ((?:node_modules\/)?[\w@./-]+\.(?:m?js|ts))$/.exec(text)?.[1];
    if (!file) return;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    starts.push([line, pkg ? `npm:${pkg}` : (file.split('/')[0] ?? file)]);
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '(bundle)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]![0] <= line) {
        found = starts[mid]![1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** @returns Row R6: the top of the relay's CPU profile. */
export async function relayProfileBench(): Promise<BenchResult> {
  const { server, direct, settings } = await relayBenchUpstream();
  const inspectorPort = await freePort();
  const scriptPath = await bundleRelay();
  const partOf = partsOf(await readFile(scriptPath, 'utf8'));
  const relay = await startRelayWorker({
    settings,
    scriptPath,
    inspectorPort,
    onLine: () => undefined,
  });
  try {
    const { tokens } = await learnersWithTokens(direct, LEARNERS, 'profile', BENCH_LEARNER_SECRET);
    const load = async () => Promise.all(tokens.map(async (token) => {
      for (let i = 0; i < CALLS_EACH; i += 1) {
        const res = await fetch(`${relay.origin}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
      }
    }));
    await load();
    const cdp = await inspector(inspectorPort);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await load();
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[] } };
    cdp.close();
    const hits = new Map<number, number>();
    for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
    const byFunction = new Map<string, number>();
    const byPart = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const count = hits.get(node.id) ?? 0;
      if (count === 0) continue;
      total += count;
      // Frames without a URL are the runtime's own (fetch, Response, Headers, the garbage collector).
      const fn = `${node.callFrame.functionName || '(anonymous)'}${node.callFrame.url === '' ? ' [runtime]' : ''}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + count);
      const { url, functionName, lineNumber } = node.callFrame;
      const part = url === '' ? (functionName.startsWith('(') ? functionName : '(runtime)') : url.endsWith('.mjs') ? partOf(lineNumber) : url;
      byPart.set(part, (byPart.get(part) ?? 0) + count);
    }
    const top = (map: Map<string, number>, n: number) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
      .map(([name, count]) => `${name} ${fixed((count / total) * 100, 1)} %`);
    return {
      id: 'R6',
      name: `Where the relay's time goes: CPU profile of its workerd isolate, ${LEARNERS} learners × ${CALLS_EACH} GET /v1/me`,
      result: `self time by part: ${top(byPart, 10).join('; ')}. Top functions: ${top(byFunction, 8).join('; ')}`,
      target: 'report only',
      met: null,
      details: { samples: total, byPart: top(byPart, 20), top: top(byFunction, 20) },
    };
  } finally {
    await relay.dispose();
    await server.close();
  }
}
