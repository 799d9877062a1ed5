import { exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import { LOWER_ALNUM, createPrng, deriveSeed } from './prng.ts';
import type { EnvName } from './types.ts';

/** One environment's RS256 signing key. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public key as published in the JWKS. */
  jwk: JWK;
}

/** Keys are created lazily and survive `reset()` (credentials are seeded, so old tokens stay verifiable). */
export interface KeyStore {
  /** @returns the environment's signing key, generating it on first use. */
  signing(env: EnvName): Promise<SigningKey>;
  /** @returns the environment's HMAC-SHA256 key for content URLs. */
  contentHmac(env: EnvName): Promise<CryptoKey>;
}

/**
 * Each caller that finds no key generates one and the first to finish wins. No promise is shared between
 * requests, because workerd forbids awaiting one request's promise in another.
 * @param seed seeds the key ids and the HMAC secrets (RSA keys themselves come from WebCrypto).
 * @returns the key store.
 */
export function createKeyStore(seed: number): KeyStore {
  const signing = new Map<EnvName, SigningKey>();
  const hmac = new Map<EnvName, CryptoKey>();
  return {
    async signing(env) {
      const known = signing.get(env);
      if (known) return known;
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: false });
      const kid = `${env}-${createPrng(deriveSeed(seed, `kid:${env}`)).string(20, LOWER_ALNUM)}`;
      const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
      if (!signing.has(env)) signing.set(env, { kid, privateKey, publicKey, jwk });
      return signing.get(env) as SigningKey;
    },
    async contentHmac(env) {
      const known = hmac.get(env);
      if (known) return known;
      const prng = createPrng(deriveSeed(seed, `hmac:${env}`));
      const raw = new Uint8Array(Array.from({ length: 32 }, () => prng.int(0, 255)));
      const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
      if (!hmac.has(env)) hmac.set(env, key);
      return hmac.get(env) as CryptoKey;
    },
  };
}
