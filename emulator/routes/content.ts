import type { Context, Hono } from 'hono';
import { contextIri } from '../api-docs.ts';
import { iso } from '../clock.ts';
import { checkContentUrl, signContentUrl } from '../content-url.ts';
import type { AppEnv, EmulatorContext } from '../context.ts';
import { jsonLd, notFound } from '../hydra.ts';
import { learnerRequired } from '../learner.ts';
import { contentPdf } from '../pdf.ts';
import { findReachableModule, parseId } from '../queries.ts';
import { touchProgress } from '../records.ts';
import { isEnvName } from '../types.ts';
import type { Module } from '../types.ts';

/** Content URLs live about 60 minutes (spec). */
export const CONTENT_TTL_MS = 3_600_000;

/**
 * `GET /modules/{id}/content` (first access creates the course progress, later ones record activity),
 * `GET /modules/{id}/refresh-url` (new URL, no progress change), and the signed content itself at
 * `GET /{env}/content/{moduleId}` (403 once expired on the emulator clock or when tampered).
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerContent(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  const withLearner = learnerRequired(ctx);
  const answer = async (c: Context<AppEnv>, firstAccess: boolean): Promise<Response> => {
    const learner = c.get('learner');
    const env = c.get('env');
    const data = ctx.state.envs[env];
    const id = parseId(c.req.param('id'));
    const module = id === null ? undefined : findReachableModule(data.catalog, id);
    if (!module) return notFound('Module not found.');
    const now = ctx.clock.now();
    if (firstAccess) touchProgress(data, learner.uuid, module.courseId, now);
    const expires = now + CONTENT_TTL_MS;
    return jsonLd({
      '@context': contextIri(env, 'ModuleContent'),
      '@type': 'ModuleContent',
      module_id: module.id,
      content_type: module.contentType,
      content_url: await signContentUrl(ctx.keys, new URL(c.req.url).origin, env, module.id, learner.uuid, expires),
      expires_at: iso(expires),
      duration_seconds: module.durationSeconds,
      mime_type: module.mimeType,
    });
  };
  app.get('/:env/v1/modules/:id/content', withLearner, (c) => answer(c, true));
  app.get('/:env/v1/modules/:id/refresh-url', withLearner, (c) => answer(c, false));

  app.get('/:env/content/:id', async (c) => {
    const env = c.req.param('env');
    const id = parseId(c.req.param('id'));
    if (!isEnvName(env) || id === null) return notFound();
    const verdict = await checkContentUrl(ctx.keys, env, id, new URL(c.req.url).searchParams, ctx.clock.now());
    const module = ctx.state.envs[env].catalog.modules.find((m) => m.id === id);
    if (verdict !== 'ok' || !module) return accessDenied(verdict === 'expired' ? 'Request has expired' : 'Invalid signature');
    return new Response(await contentBody(module), { headers: { 'content-type': module.mimeType, 'cache-control': 'private, no-store' } });
  });
}

function accessDenied(message: string): Response {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message}</Message></Error>\n`;
  return new Response(body, { status: 403, headers: { 'content-type': 'application/xml' } });
}

// The smallest recognisable files of each kind: an MP4 `ftyp` box and an empty ZIP archive.
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32, 0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]);
const ZIP = new Uint8Array([0x50, 0x4b, 5, 6, ...new Array<number>(18).fill(0)]);

async function contentBody(module: Module): Promise<BodyInit> {
  switch (module.contentType) {
    case 'video':
      return MP4;
    case 'resource':
      return ZIP;
    case 'document':
      return (await contentPdf(module.title)) as Uint8Array<ArrayBuffer>;
    case 'scorm':
      return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(module.title)}</title></head><body><h1>${escapeHtml(module.title)}</h1><p>SCORM package rendered by the Partner Learning emulator.</p><script>window.API_1484_11={Initialize:()=>"true",Terminate:()=>"true",GetValue:()=>"",SetValue:()=>"true",Commit:()=>"true",GetLastError:()=>"0",GetErrorString:()=>"",GetDiagnostic:()=>""};</script></body></html>`;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
