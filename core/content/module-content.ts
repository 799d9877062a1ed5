/**
 * The content and refresh-url answers, returned as the service sends them (snake_case, see the spec's naming
 * rule). Only the two fields the client relies on are checked.
 */
import type { ModuleContent } from '../types/records.ts';
import type { ApiResponse } from '../transport.ts';
import { unexpectedAnswer, type AnswerContext } from '../local-errors.ts';

/**
 * @param response The answer of `/modules/{id}/content` or `/modules/{id}/refresh-url`.
 * @param context The request, for the error message.
 * @returns The record, unchanged.
 * @throws {ApplicationError} when `content_url` or a parseable `expires_at` is missing.
 */
export function toModuleContent(response: ApiResponse<unknown>, context: AnswerContext): ModuleContent {
  const data = response.data;
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined;
  const where = { ...context, status: response.status, requestId: response.requestId };
  if (!record || typeof record.content_url !== 'string' || record.content_url === '') {
    throw unexpectedAnswer(
      'Expected a ModuleContent record with content_url, but the answer has none; ' +
        'check that the base URL points at the Partner Learning API.',
      where,
    );
  }
  if (typeof record.expires_at !== 'string' || Number.isNaN(Date.parse(record.expires_at))) {
    throw unexpectedAnswer(
      'Expected a ModuleContent record with an ISO 8601 expires_at, but it is missing or unreadable.',
      where,
    );
  }
  return record as ModuleContent;
}

/**
 * @param content A checked record.
 * @returns `expires_at` as epoch milliseconds.
 */
export function expiresAtMs(content: ModuleContent): number {
  return Date.parse(content.expires_at);
}
