import type { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.ts';
import { notFound } from '../hydra.ts';
import { learnerRequired } from '../learner.ts';
import { certificatePdf, paddedPdf, transcriptPdf } from '../pdf.ts';
import { parseId } from '../queries.ts';

/**
 * `GET /transcript/pdf` (singular: the whole transcript) and `GET /transcripts/{id}/certificate/pdf` (the
 * learner's course transcript with `certificateAvailable`, else 404). With `realisticLatency` generation takes
 * 1-3 s; with a PDF padding set (control interface) the transcript is streamed padded to that size.
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerPdf(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  const withLearner = learnerRequired(ctx);
  const slowDown = async () => {
    if (ctx.realisticLatency) await new Promise((resolve) => setTimeout(resolve, 1000 + Math.floor(ctx.latency.next() * 2000)));
  };
  const pdfHeaders = (filename: string, length: number) => ({
    'content-type': 'application/pdf',
    'content-disposition': `attachment; filename="${filename}"`,
    'content-length': String(length),
  });

  app.get('/:env/v1/transcript/pdf', withLearner, async (c) => {
    const learner = c.get('learner');
    const data = ctx.state.envs[c.get('env')];
    const records = data.transcriptsByLearner.get(learner.uuid) ?? [];
    await slowDown();
    const titles = new Map(data.catalog.courses.map((course) => [course.id, course.title]));
    const pdf = await transcriptPdf(learner, records, ctx.clock.now(), (id) => titles.get(id));
    const filename = `transcript-${learner.uuid}.pdf`;
    if (ctx.state.pdfPadding > pdf.length) {
      const padded = paddedPdf(pdf, ctx.state.pdfPadding);
      return new Response(padded.stream, { headers: pdfHeaders(filename, padded.length) });
    }
    return new Response(pdf as Uint8Array<ArrayBuffer>, { headers: pdfHeaders(filename, pdf.length) });
  });

  app.get('/:env/v1/transcripts/:id/certificate/pdf', withLearner, async (c) => {
    const learner = c.get('learner');
    const t = ctx.state.envs[c.get('env')].transcripts.get(parseId(c.req.param('id')) ?? 0);
    if (!t || t.learnerUuid !== learner.uuid || !t.certificateAvailable) return notFound('Certificate not found.');
    await slowDown();
    const pdf = await certificatePdf(learner, t, ctx.clock.now());
    return new Response(pdf as Uint8Array<ArrayBuffer>, { headers: pdfHeaders(`certificate-${t.id}.pdf`, pdf.length) });
  });
}
