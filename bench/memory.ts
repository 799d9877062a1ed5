/**
 * Benchmark 4: the client's memory stays flat while it (a) walks 100,000 transcripts page by page and (b) streams a
 * 100 MB transcript PDF. The emulator runs in one child process, the measured client in another.
 */
import { MemoryTokenStore, createClient } from '../core/index.ts';
import { runMemoryClient, startEmulatorProcess } from './child.ts';
import { clientOptions, control, generousPlan, mib, putUsagePlan, sandboxOf, signedMib, type BenchResult, type Partner } from './support.ts';

const transcripts = 100_000;
const pdfBytes = 104_857_600;
const limitBytes = 64 * 1_048_576;

/**
 * Sets up a learner with 100,000 transcripts and a padded PDF, then measures the client in child processes.
 *
 * @returns Rows for delta sync, plain listing and the PDF stream.
 */
export async function memoryBench(): Promise<BenchResult[]> {
  const emulator = await startEmulatorProcess(105);
  try {
    const { origin } = emulator;
    const partners = (await control(fetch, origin, 'GET', '/_emulator/partners')) as Partner[];
    await putUsagePlan(fetch, origin, sandboxOf(partners[0]).apiKey, generousPlan);
    const client = createClient(clientOptions(partners[0], fetch, { tokenStore: new MemoryTokenStore() }));
    const [org] = await client.organizations.list().toArray({ max: 1 });
    if (!org) throw new Error('the emulator has no organization');
    const learner = await client.users.register({ email: 'bench.memory@example.com', firstName: 'Bench', lastName: 'Memory', organizationId: org.id });
    const bulkStarted = performance.now();
    await control(fetch, origin, 'POST', '/_emulator/bulk-transcripts', { env: 'sandbox', userUuid: learner.uuid, count: transcripts });
    const bulkMs = performance.now() - bulkStarted;

    const rows: BenchResult[] = [];
    for (const mode of ['sync', 'list'] as const) {
      const r = await runMemoryClient([origin, learner.uuid, mode]);
      const rss = Number(r['peakRssAbove']);
      const heap = Number(r['peakHeapAbove']);
      const records = Number(r['records']);
      rows.push({
        id: mode === 'sync' ? '4a' : '4a-list',
        name: `Memory, ${mode === 'sync' ? 'transcripts.sync' : 'transcripts.list'} over ${transcripts.toLocaleString('en')} transcripts (pageSize 100, socket)`,
        result:
          `peak ${signedMib(rss)} RSS, ${signedMib(heap)} heap (${signedMib(Number(r['retainedHeapAbove']))} retained after GC); ` +
          `${records.toLocaleString('en')} records in ${(Number(r['elapsedMs']) / 1000).toFixed(1)} s`,
        target: '< 64 MB above baseline, all records',
        met: rss < limitBytes && heap < limitBytes && records === transcripts,
        details: { ...r, bulkCreateMs: bulkMs },
      });
    }

    await control(fetch, origin, 'PUT', '/_emulator/pdf-padding', { bytes: pdfBytes });
    const r = await runMemoryClient([origin, learner.uuid, 'pdf']);
    const rss = Number(r['peakRssAbove']);
    const heap = Number(r['peakHeapAbove']);
    const bytes = Number(r['bytes']);
    rows.push({
      id: '4b',
      name: 'Memory, streaming a 100 MB transcript PDF to a byte counter (socket)',
      result:
        `peak ${signedMib(rss)} RSS, ${signedMib(heap)} heap (${signedMib(Number(r['retainedHeapAbove']))} retained after GC); ` +
        `${mib(bytes)} read in ${(Number(r['elapsedMs']) / 1000).toFixed(1)} s`,
      target: '< 64 MB above baseline, >= 100 MB read',
      met: rss < limitBytes && heap < limitBytes && bytes >= pdfBytes * 0.99 && r['magic'] === '%PDF-',
      details: r,
    });
    return rows;
  } finally {
    await emulator.stop();
  }
}
