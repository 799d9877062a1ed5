/**
 * The one body reader: error bodies, token answers and API answers all come through here, so a body that is not
 * JSON, too large or nested too deep is handled the same way everywhere. Bodies are read as a stream with a byte
 * cap, never buffered past it: an endless or oversized answer costs at most the cap.
 */

/** Deepest JSON nesting accepted. The service's records nest about five levels; a thousand levels is an attack. */
export const MAX_JSON_DEPTH = 64;

/** A body's text read as JSON: the value, or `ok: false` with the reason when it is not usable JSON. */
export type ParsedBody =
  | { ok: true; value: unknown }
  | { ok: false; text: string; reason: 'not-json' | 'too-deep' };

/**
 * Whether JSON text nests deeper than `max` (objects and arrays), without parsing it: a parse would build the deep
 * structure first, and every recursive reader after it (`JSON.stringify` included) would overflow the stack.
 *
 * @param text JSON text.
 * @param max The deepest nesting allowed.
 * @returns `true` when some value lies deeper than `max`.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * @param text A body's text.
 * @returns `{ ok: true, value }` (`value` is `undefined` for an empty body) or `{ ok: false, text, reason }`.
 */
export function parseBody(text: string): ParsedBody {
  if (text === '') return { ok: true, value: undefined };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return { ok: false, text, reason: 'too-deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, text, reason: 'not-json' };
  }
}

/**
 * @param text A body's text.
 * @returns `undefined` when empty, the parsed JSON when it parses, else the text itself.
 * @example
 * parseJsonOrText('{"a":1}'); // { a: 1 }
 * parseJsonOrText('Bad Gateway'); // 'Bad Gateway'
 */
export function parseJsonOrText(text: string): unknown {
  const parsed = parseBody(text);
  return parsed.ok ? parsed.value : parsed.text;
}

/** Thrown by {@link readText} when a body is larger than its cap (the stream is cancelled first). */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  /** The cap that was passed. */
  readonly maxBytes: number;

  /** @param maxBytes The cap that was passed. */
  constructor(maxBytes: number) {
    super(`the body is larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/** How {@link readText} treats a body over its cap. */
export interface ReadTextOptions {
  /** The most bytes read. */
  maxBytes: number;
  /** `true`: keep the first `maxBytes` and stop (error texts); default: throw {@link BodyTooLargeError}. */
  truncate?: boolean;
}

/**
 * The body's length as its `Content-Length` declares it, when the bytes read will be those bytes: no content coding
 * (a gzip body of a few kilobytes may decode to gigabytes). Over HTTP the framing then holds the body to it.
 */
function declaredLength(headers: Headers): number | undefined {
  const length = headers.get('content-length');
  const coding = headers.get('content-encoding');
  if (length === null || !/^\d{1,15}$/.test(length.trim()) || (coding !== null && coding.trim().toLowerCase() !== 'identity')) return undefined;
  return Number(length);
}

/**
 * Reads a body as UTF-8 text, at most `maxBytes` of it. A `Content-Length` over the cap fails before reading; one
 * within it is read in one go by the runtime (`text()`), which in workerd saves the relay a JS round per chunk.
 *
 * @param response Any response (or request) whose body is unread.
 * @param options The cap, and whether to cut or refuse beyond it.
 * @returns The text.
 * @throws {BodyTooLargeError} Over the cap (unless `truncate`); the stream is cancelled.
 * @throws Whatever the stream fails with (a connection cut mid-body, an abort): the caller maps it.
 */
export async function readText(response: Pick<Response, 'body' | 'headers' | 'text'>, options: ReadTextOptions): Promise<string> {
  const { maxBytes, truncate = false } = options;
  const body = response.body;
  if (body === null) return '';
  const declared = declaredLength(response.headers);
  if (!truncate && declared !== undefined && declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  // A Response built in-process (an injected fetch) is held to no framing: its text is checked against the cap too,
  // by length (each character is at least one byte).
  if (declared !== undefined && declared <= maxBytes) {
    const text = await response.text();
    if (text.length <= maxBytes) return text;
    if (!truncate) throw new BodyTooLargeError(maxBytes);
    return new TextDecoder().decode(new TextEncoder().encode(text).subarray(0, maxBytes));
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => undefined);
      if (!truncate) throw new BodyTooLargeError(maxBytes);
      text += decoder.decode(value.subarray(0, maxBytes - bytes), { stream: true });
      break;
    }
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Error bodies are read for their message only: the first 64 KiB say all there is to say. */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;

/**
 * Reads an error body (or a token answer) to at most 64 KiB, as JSON when it parses, else as text.
 *
 * @param response Any response (or request) whose body is unread.
 * @returns See {@link parseJsonOrText}.
 */
export async function readJsonOrText(response: Response): Promise<unknown> {
  return parseJsonOrText(await readText(response, { maxBytes: ERROR_BODY_MAX_BYTES, truncate: true }));
}
