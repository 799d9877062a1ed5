/**
 * Reads one collection answer into a {@link Page}. The envelope is Hydra (API Platform): `hydra:member`,
 * `hydra:totalItems`, `hydra:view` / `hydra:next`, or the same keys without the `hydra:` prefix (API Platform 4).
 * A plain JSON array is a single page.
 */
import type { Page } from '../types/calls.ts';
import { unexpectedAnswer, type AnswerContext } from '../local-errors.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pick(record: Record<string, unknown>, name: string): unknown {
  return record[`hydra:${name}`] ?? record[name];
}

/**
 * @param data The parsed JSON body of a collection request.
 * @param context The request, for the error message.
 * @returns The page's items, total count and next link (when the service gave them).
 * @throws {ApplicationError} when the body is neither a collection nor an array.
 */
export function parsePage<T>(data: unknown, context: AnswerContext): Page<T> {
  if (Array.isArray(data)) return { items: data as T[] };
  if (!isRecord(data)) {
    throw unexpectedAnswer(
      `Expected a collection but the answer is ${data === null ? 'null' : typeof data}; ` +
        'check that the base URL points at the Partner Learning API.',
      context,
    );
  }
  const members = pick(data, 'member');
  if (!Array.isArray(members)) {
    throw unexpectedAnswer(
      'Expected a collection (hydra:member) but the answer has none; ' +
        'check that the base URL points at the Partner Learning API.',
      context,
    );
  }
  const page: Page<T> = { items: members as T[] };
  const total = pick(data, 'totalItems');
  if (typeof total === 'number') page.totalItems = total;
  const view = pick(data, 'view');
  if (isRecord(view)) {
    const next = pick(view, 'next');
    if (typeof next === 'string' && next !== '') page.next = next;
  }
  return page;
}
