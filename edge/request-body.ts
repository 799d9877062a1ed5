/**
 * Request bodies: capped at 64 KiB (413), PATCH only as `application/merge-patch+json` (415, as upstream), JSON
 * parsed here so a malformed body is a 400 before anything goes upstream.
 */
import { problem } from './problem.ts';

/** The largest request body the relay accepts. */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * An oversized body up to this size is read to its end (and dropped) before the 413, so the client finishes its
 * upload and reads the answer instead of seeing the connection reset under it; anything larger is cut off.
 */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

function tooLarge(): Response {
  return problem(413, 'payload_too_large', { detail: `Request bodies are limited to ${MAX_BODY_BYTES} bytes.` });
}

/** Reads the body up to the cap; `undefined` when it is larger. */
async function readCapped(request: Request): Promise<string | undefined> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      return undefined;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(value);
  }
  if (size > MAX_BODY_BYTES) return undefined;
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * @param request The caller's request.
 * @param kind What the operation expects: a JSON body, a merge patch, or none (then any body is only capped).
 * @returns The parsed body, or the problem to answer.
 */
export async function readBody(request: Request, kind: 'json' | 'merge-patch' | undefined): Promise<{ value: unknown } | Response> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) return tooLarge();
  if (kind === 'merge-patch') {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/merge-patch+json') {
      return problem(415, 'unsupported_media_type', { detail: 'Send the PATCH body as application/merge-patch+json.' });
    }
  }
  let text: string | undefined;
  try {
    text = await readCapped(request);
  } catch {
    // The caller went away mid-upload (or its body broke off): nobody is left to read an answer, and it is no error of
    // the relay's. Nothing was sent upstream.
    return problem(400, 'validation_failed', {
      detail: 'The request body was cut off before its end.',
      violations: [{ propertyPath: '', message: 'Send the whole body.' }],
    });
  }
  if (text === undefined || (Number.isFinite(declared) && declared > MAX_BODY_BYTES)) return tooLarge();
  if (kind === undefined || text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return problem(400, 'validation_failed', {
      detail: 'The request body is not valid JSON.',
      violations: [{ propertyPath: '', message: 'Send a valid JSON body.' }],
    });
  }
}
