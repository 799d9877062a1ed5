/** `GET /ping`: health, with the API key only (so a success does not prove the token works). */
import type { CallOptions } from '../client-types.ts';
import type { Health } from '../types.ts';
import type { Transport } from '../transport.ts';

/**
 * @param transport Sends the request.
 * @returns `ping(options)`, resolving with the health record (`status` is `healthy` when up).
 */
export function createPing(transport: Transport): (options?: CallOptions) => Promise<Health> {
  return async (options) => {
    const response = await transport.request<Health>({
      method: 'GET',
      path: '/ping',
      auth: 'apiKeyOnly',
      signal: options?.signal,
    });
    return response.data;
  };
}
