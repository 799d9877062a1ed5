/**
 * `partner-learning-client`: a runtime-agnostic client for the Partner Learning Service (Node 22+,
 * Cloudflare Workers, Deno, Bun). Start with {@link createClient}.
 */
export { createClient } from './client.ts';
export * from './errors/index.ts';
export { MemoryTokenStore } from './auth/memory-token-store.ts';

export type * from './client-types.ts';
export type * from './types.ts';
export type { ApiRequest, ApiResponse, HttpMethod, Transport } from './transport.ts';

export { createContentUrlKeeper, REFRESH_BEFORE_EXPIRY_MS, type KeeperDeps } from './content/keeper.ts';
export { fileNameFromDisposition } from './pdf.ts';
export {
  countryCodeSchema,
  emailSchema,
  idSchema,
  isoDateTimeSchema,
  MAX_PAGE_SIZE,
  pageSizeSchema,
  READ_ONLY_USER_FIELDS,
  recordIdSchema,
  registerUserSchema,
  userPatchSchema,
  userStatusSchema,
  uuidSchema,
  watermarkSchema,
} from './validation/schemas.ts';
