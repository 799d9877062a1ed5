/**
 * The client factory: options are normalized once, one transport is built, and the resource groups share it.
 */
import type { ClientOptions } from './types/options.ts';
import type { PartnerLearningClient } from './types/client-api.ts';
import { clientOnTransport } from './client-on-transport.ts';
import { createTransport } from './http/ky-transport.ts';
import { normalizeOptions } from './options.ts';

/**
 * Creates a Partner Learning client. Options are checked here, once; a bad option throws before any request.
 *
 * @param options Token URL, base URL, credentials and optional hooks (fetch, clock, sleep, token store, logger);
 *   see `ClientOptions`.
 * @returns The client: `ping`, `users`, `organizations`, `categories`, `courses`, `modules`, `progress`,
 *   `transcripts`.
 * @throws {ConfigurationError} when an option is missing or malformed (the message names the option, never a
 *   secret value).
 * @example
 * ```ts
 * import { createClient } from 'partner-learning-client';
 * import { createEmulator } from 'partner-learning-emulator';
 *
 * // The emulator in-process; against a real sandbox pass its URLs and credentials instead (and no fetch).
 * const emulator = createEmulator();
 * const env = emulator.partners('http://emulator.test')[0]!.environments.sandbox;
 * const client = createClient({
 *   tokenUrl: env.tokenUrl,
 *   baseUrl: env.baseUrl,
 *   clientId: env.clients[0]!.clientId,
 *   clientSecret: env.clients[0]!.clientSecret,
 *   apiKey: env.apiKey,
 *   environment: 'sandbox',
 *   fetch: (input, init) => emulator.fetch(input, init),
 * });
 *
 * const [org] = await client.organizations.list().toArray({ max: 1 });
 * const learner = await client.users.register({
 *   email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: org!.id,
 * });
 * for await (const course of client.courses.list({ pageSize: 50 })) console.log(course.id, course.title);
 *
 * const [course] = await client.courses.list().toArray({ max: 1 });
 * const { modules } = await client.courses.get(course!.id);
 * const content = await client.modules.content(modules[0]!.id, { userId: learner.uuid });
 * console.log(content.content_url, content.expires_at);
 * ```
 */
export function createClient(options: ClientOptions): PartnerLearningClient {
  const normalized = normalizeOptions(options);
  // One transport: one ky instance, one token provider (with the client's redactor and log), one limiter.
  const transport = createTransport(normalized);
  return clientOnTransport(transport, normalized.environment, { token: transport.token, scopes: normalized.scopes });
}

export { clientOnTransport };
