/**
 * The emulator's PDFs in workerd: Node reads the DejaVu fonts from node_modules, a Worker bundle must carry them
 * itself (`type: 'bytes'` imports). A certificate rendered inside workerd embeds DejaVu, not a standard font.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry, removeBundle, type Bundle } from '../support/runtime-bundle.ts';
import { pdfSearchText } from '../support/emulator-pdf.ts';
import { startWorker, type RunningWorker } from '../support/runtime-miniflare.ts';

describe('workerd: emulator PDFs with embedded fonts', () => {
  let bundle: Bundle | undefined;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    bundle = await bundleEntry('test/support/runtime-worker-pdf.ts', 'workerd');
    worker = await startWorker({ scriptPath: bundle.outfile });
  });
  afterAll(async () => {
    await worker?.dispose();
    await removeBundle(bundle);
  });

  it('renders a Greek and Cyrillic name with the bundled DejaVu fonts', async () => {
    if (!worker) throw new Error('workerd did not start');
    const res = await worker.mf.dispatchFetch('http://worker.test/');
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = pdfSearchText(bytes);
    expect(text).toMatch(/\/BaseFont \/DejaVuSerif-Bold/);
    expect(text).not.toMatch(/\/BaseFont \/(Helvetica|Times)/);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getAuthor()).toBe('Ζωή Достоевская');
    const [page] = doc.getPages();
    expect(page!.getWidth()).toBeGreaterThan(page!.getHeight());
  });
});
