/**
 * The client the operations use: the core's resource groups on the n8n driver, built per run from the credential's
 * base URL and API key (n8n adds the token and the key header itself).
 */
import type { PartnerLearningClient } from '../../../core/protocol.ts';
import { clientOnTransport } from '../../../core/protocol.ts';
import { createN8nTransport, CREDENTIAL_TYPE, type RequestContext } from './n8n-transport.ts';

export { CREDENTIAL_TYPE } from './n8n-transport.ts';
export { failedItemJson, toNodeApiError } from './n8n-errors.ts';

/**
 * @param ctx The node's `this`.
 * @returns The core client on n8n's HTTP helpers.
 */
export async function partnerLearningClient(ctx: RequestContext): Promise<PartnerLearningClient> {
  const credentials = await ctx.getCredentials<{ baseUrl: string; apiKey: string }>(CREDENTIAL_TYPE);
  return clientOnTransport(createN8nTransport(ctx, { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey }));
}
