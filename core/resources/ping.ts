/** `GET /ping`: health, with the API key only (so a success does not prove the token works). */
import type { CallOptions } from '../types/calls.ts';
import type { Health } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { checkCall, send } from './call.ts';

/**
 * @param transport Sends the request.
 * @returns `ping(options)`, resolving with the health record (`status` is `healthy` when up).
 */
export function createPing(transport: Transport): (options?: CallOptions) => Promise<Health> {
  return async (options) => {
    const checked = checkCall(options);
    const response = await send<Health>(transport, { method: 'GET', path: '/ping', auth: 'apiKeyOnly' }, checked);
    return response.data;
  };
}
