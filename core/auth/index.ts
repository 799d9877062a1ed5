/** Client-credentials tokens: the token endpoint request, the cache and the default in-memory store. */
export { MemoryTokenStore, defaultTokenStore } from './memory-token-store.ts';
export { basicAuthorization, parseTokenResponse, requestToken, tokenRequestBody, type TokenRequest } from './token-endpoint.ts';
export { REFRESH_MARGIN_MS, TokenProvider, tokenCacheKey, type TokenProviderInit } from './token-provider.ts';
