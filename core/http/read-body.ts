/**
 * The one JSON-or-text body reader: error bodies, token answers and API answers all come through here, so a body
 * that is not JSON is handled the same way everywhere.
 */

/** A body's text read as JSON: the value, or `ok: false` when it is not JSON. Empty text is no value at all. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; text: string };

/**
 * @param text A body's text.
 * @returns `{ ok: true, value }` (`value` is `undefined` for an empty body) or `{ ok: false, text }`.
 */
export function parseBody(text: string): ParsedBody {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, text };
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

/**
 * Reads a response body to the end.
 *
 * @param response Any response whose body is unread.
 * @returns See {@link parseJsonOrText}.
 */
export async function readJsonOrText(response: Response): Promise<unknown> {
  return parseJsonOrText(await response.text());
}
