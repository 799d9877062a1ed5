/**
 * The client side of benchmark 4, run in its own Node process with `--expose-gc` so only the client's memory is
 * measured: `node --expose-gc --import tsx bench/memory-client.ts <origin> <userId> <sync|list|pdf> [live]`.
 * Prints one JSON line: records or bytes read and the peak RSS / heap above a post-GC baseline. With `live`, it
 * also runs a full GC every 10,000 records and reports the largest live heap seen (`liveHeapMaxAbove`): what the
 * client really holds, as opposed to garbage the collector has not got to yet.
 */
import { MemoryTokenStore, createClient } from '../core/index.ts';
import { clientOptions, control, type Partner } from './support.ts';

const [origin, userId, mode, live] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!origin || !userId || !mode) throw new Error('usage: memory-client.ts <origin> <userId> <sync|list|pdf>');
if (!gc) throw new Error('run with node --expose-gc');

const partners = (await control(fetch, origin, 'GET', '/_emulator/partners')) as Partner[];
const client = createClient(
  clientOptions(partners[0], fetch, { tokenStore: new MemoryTokenStore(), rateLimit: { requestsPerSecond: 10_000 } }),
);
// Warm up (token, ky, sockets) so the baseline includes the machinery and the peak shows only the data.
await client.transcripts.list({ userId, pageSize: 1 }).toArray({ max: 1 });

gc();
gc();
const baseline = process.memoryUsage();
let peakRss = baseline.rss;
let peakHeap = baseline.heapUsed;
// ArrayBuffers live outside the JS heap (socket reads, stream chunks) and are freed only when their owners are
// collected: the share of the RSS peak that is I/O buffers awaiting GC rather than anything the client keeps.
let peakArrayBuffers = baseline.arrayBuffers;
const sample = (): void => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakArrayBuffers = Math.max(peakArrayBuffers, m.arrayBuffers);
};
const timer = setInterval(sample, 10);
const started = performance.now();
let records = 0;
let bytes = 0;
let magic = '';
let seenIds: number | undefined;
let liveMax = 0;

if (mode === 'pdf') {
  const download = await client.transcripts.pdf({ userId });
  const reader = download.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) magic = new TextDecoder().decode(value.subarray(0, 5));
    bytes += value.byteLength;
    if (++records % 64 === 0) sample();
  }
} else {
  const items = mode === 'sync' ? client.transcripts.sync({ userId, pageSize: 100 }) : client.transcripts.list({ userId, pageSize: 100 });
  for await (const _item of items) {
    if (++records % 1000 === 0) sample();
    if (live === 'live' && records % 10_000 === 0) {
      gc();
      liveMax = Math.max(liveMax, process.memoryUsage().heapUsed - baseline.heapUsed);
    }
  }
  if ('watermark' in items) seenIds = items.watermark?.seenIds.length;
}
sample();
clearInterval(timer);
// What is still held after a full GC tells a leak (retained) from garbage not yet collected (peak only).
gc();
gc();
const retainedHeapAbove = process.memoryUsage().heapUsed - baseline.heapUsed;
console.log(
  JSON.stringify({
    mode,
    records,
    bytes,
    magic,
    elapsedMs: performance.now() - started,
    baselineRss: baseline.rss,
    baselineHeap: baseline.heapUsed,
    peakRssAbove: peakRss - baseline.rss,
    peakHeapAbove: peakHeap - baseline.heapUsed,
    peakArrayBuffersAbove: peakArrayBuffers - baseline.arrayBuffers,
    retainedHeapAbove,
    ...(live === 'live' ? { liveHeapMaxAbove: liveMax } : {}),
    ...(seenIds === undefined ? {} : { watermarkSeenIds: seenIds }),
  }),
);
