/**
 * Learner tokens (relay contract, "Learner tokens"): HS256 JWTs signed with `LEARNER_TOKEN_SECRET`, one learner
 * each, at most an hour long. Verification is strict: HS256 only, `exp`, `iat` and `sub` required, audience
 * checked, 30 s leeway at most, and `sub` must be a UUID, because it becomes the `X-User-ID` sent upstream.
 */
import { SignJWT, jwtVerify } from 'jose';
import { uuidSchema } from '../core/protocol.ts';

/** The `aud` of every learner token. */
export const LEARNER_TOKEN_AUDIENCE = 'partner-learning-relay';
/** Clock skew tolerated on `exp` and `iat`, in seconds. */
export const LEEWAY_SECONDS = 30;
/** The longest a token may live (`exp - iat`), in seconds. */
export const MAX_LIFETIME_SECONDS = 3600;
/** `ttlSeconds` bounds of `POST /v1/learner-tokens`. */
export const MIN_TTL_SECONDS = 60;
export const DEFAULT_TTL_SECONDS = 900;

/** Why a token was refused; said to the caller only in general terms. */
export class InvalidLearnerTokenError extends Error {
  override readonly name = 'InvalidLearnerTokenError';
}

/** A minted token. */
export interface MintedToken {
  token: string;
  userId: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

/**
 * Signs a learner token.
 *
 * @param key The HS256 key (UTF-8 bytes of `LEARNER_TOKEN_SECRET`).
 * @param userId The learner's UUID (`sub`).
 * @param ttlSeconds Lifetime, 60..3600.
 * @param nowMs Epoch milliseconds.
 * @returns The token, the learner and the expiry.
 * @example
 * const { token } = await mintLearnerToken(key, '3f2504e0-4f89-41d3-9a0c-0305e82c3301', 900, Date.now());
 */
export async function mintLearnerToken(key: Uint8Array, userId: string, ttlSeconds: number, nowMs: number): Promise<MintedToken> {
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + ttlSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(LEARNER_TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(crypto.randomUUID())
    .sign(key);
  return { token, userId, expiresAt: new Date(exp * 1000).toISOString() };
}

/**
 * Imports the HS256 key once, so verifying a token does not import it again per request.
 *
 * @param key The UTF-8 bytes of `LEARNER_TOKEN_SECRET`.
 * @returns A verify-only HMAC SHA-256 key (a plain value: safe to keep across requests in a Worker).
 */
export function importLearnerKey(key: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

/**
 * Verifies a learner token and returns its learner.
 *
 * @param token The compact JWT from `Authorization: Bearer`.
 * @param key The HS256 key (bytes, or imported once with {@link importLearnerKey}).
 * @param nowMs Epoch milliseconds.
 * @returns The learner's UUID (`sub`).
 * @throws {InvalidLearnerTokenError} For any other algorithm, a bad signature, missing or out-of-range `exp`/`iat`,
 *   another audience, or a `sub` that is not a UUID.
 */
export async function verifyLearnerToken(token: string, key: Uint8Array | CryptoKey, nowMs: number): Promise<string> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: LEARNER_TOKEN_AUDIENCE,
      clockTolerance: LEEWAY_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: new Date(nowMs),
    }));
  } catch (error) {
    throw new InvalidLearnerTokenError(`learner token rejected: ${(error as { code?: string }).code ?? 'malformed'}`);
  }
  const { iat, exp, sub } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') throw new InvalidLearnerTokenError('learner token lacks numeric iat/exp');
  if (iat > nowMs / 1000 + LEEWAY_SECONDS) throw new InvalidLearnerTokenError('learner token iat is in the future');
  if (exp - iat > MAX_LIFETIME_SECONDS) throw new InvalidLearnerTokenError('learner token lives longer than 3600 s');
  if (!uuidSchema.safeParse(sub).success) throw new InvalidLearnerTokenError('learner token sub is not a UUID');
  return sub as string;
}
