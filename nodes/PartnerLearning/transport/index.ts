/**
 * The client the operations use: the core's resource groups on the n8n driver, built per run from the credential's
 * base URL and API key (n8n adds the token and the key header itself), and its limiter host if it names one.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../core/protocol.ts';
import { clientOnTransport, ConfigurationError } from '../../../core/protocol.ts';
import { createN8nTransport, CREDENTIAL_TYPE, type RequestContext } from './n8n-transport.ts';

export { CREDENTIAL_TYPE } from './n8n-transport.ts';
export { failedItemJson, toNodeApiError } from './n8n-errors.ts';

/**
 * @param ctx The node's `this`.
 * @returns The core client on n8n's HTTP helpers.
 */
export async function partnerLearningClient(ctx: RequestContext): Promise<PartnerLearningClient> {
  const credentials = await ctx.getCredentials<{ baseUrl: string; apiKey: string; limiterUrl?: string; limiterToken?: string }>(CREDENTIAL_TYPE);
  // Credentials saved before the limiter host fields existed have neither: each worker then paces alone.
  const url = String(credentials.limiterUrl ?? '').trim();
  const token = String(credentials.limiterToken ?? '');
  const limiterHost = url === '' ? undefined : { url, token: token === '' ? undefined : token };
  try {
    return clientOnTransport(createN8nTransport(ctx, { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey, limiterHost }));
  } catch (error) {
    // Only the limiter host's URL can be refused here (sharedLimiterOn checks it before anything is sent).
    if (!(error instanceof ConfigurationError)) throw new NodeOperationError(ctx.getNode(), error as Error);
    throw new NodeOperationError(ctx.getNode(), `The credential's Limiter Host URL is not usable: ${error.message.replace(/^createSharedLimiter: /, '')}`, {
      description: 'Give the http(s) URL of a limiter host that every worker reaches (createLimiterHost in partner-learning-client), its token in Limiter Host Token, or leave it empty to pace each worker alone',
    });
  }
}
