/**
 * A fake {@link Transport} for unit tests of the resource layer: it records every request and answers from a
 * handler. Test-only (not exported from the package entry).
 */
import type { ApiRequest, ApiResponse, Transport } from '../../core/transport.ts';

/** What the fake answers; everything defaults (200, no headers, no data). */
export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  data?: unknown;
  requestId?: string;
}

/** A transport that records its requests. */
export interface FakeTransport extends Transport {
  /** Every request, in order. */
  readonly requests: ApiRequest[];
}

/** Clock, sleep and base URL of the fake (defaults: real clock, instant sleep, a sandbox-like base URL). */
export interface FakeTransportOptions {
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  baseUrl?: string;
}

/**
 * @param handler Answers a request (may throw to simulate a transport error).
 * @param options Clock, sleep and base URL.
 * @returns The fake transport.
 */
export function fakeTransport(
  handler: (request: ApiRequest, index: number) => FakeAnswer | Promise<FakeAnswer> = () => ({ data: {} }),
  options: FakeTransportOptions = {},
): FakeTransport {
  const requests: ApiRequest[] = [];
  return {
    requests,
    baseUrl: options.baseUrl ?? 'https://api.example.test/sandbox/v1',
    now: options.now ?? (() => Date.now()),
    sleep: options.sleep ?? (() => Promise.resolve()),
    async request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
      requests.push(request);
      const answer = await handler(request, requests.length - 1);
      return {
        status: answer.status ?? 200,
        headers: new Headers(answer.headers ?? {}),
        data: answer.data as T,
        requestId: answer.requestId,
      };
    },
  };
}

/**
 * A Hydra collection page as the emulator writes it.
 *
 * @param items The members.
 * @param next The next link, if any.
 * @param prefixed Whether to use `hydra:` keys (API Platform 3) or bare keys (API Platform 4).
 * @returns The collection body.
 */
export function hydraPage(items: unknown[], next?: string, prefixed = true): Record<string, unknown> {
  const p = (key: string) => (prefixed ? `hydra:${key}` : key);
  const view: Record<string, unknown> = { '@id': '/x', [p('first')]: '/x?page=1' };
  if (next !== undefined) view[p('next')] = next;
  return { '@type': p('Collection'), [p('member')]: items, [p('totalItems')]: 999, [p('view')]: view };
}

/** A well-formed learner UUID for tests. */
export const LEARNER = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
