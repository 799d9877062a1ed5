/**
 * Who is calling (relay contract, "Callers"): a partner backend with `X-Relay-Key`, or a browser with a learner
 * token. Relay keys are compared in constant time over SHA-256 digests, so neither the key's length nor the
 * position of the first differing byte shows in the timing.
 */
import { sha256Bytes as digest } from '../core/protocol.ts';
import { importLearnerKey, InvalidLearnerTokenError, verifyLearnerToken } from './learner-token.ts';

/** A partner backend (may act for any of its learners) or one learner (acts only for `userId`). */
export type Caller = { kind: 'backend' } | { kind: 'learner'; userId: string };

/** Why no caller could be established: 401 `unauthenticated` or `invalid_token`. */
export type CallerFailure = { failure: 'unauthenticated' | 'invalid_token' };


/** Checks relay keys; digests of the configured keys are computed once and kept as plain values. */
export class RelayKeyRing {
  readonly #keys: readonly string[];
  #digests: Uint8Array[] | undefined;
  #learnerKeys = new WeakMap<Uint8Array<ArrayBuffer>, CryptoKey>();

  /** @param keys The configured `RELAY_KEYS`. */
  constructor(keys: readonly string[]) {
    this.#keys = keys;
  }

  /**
   * @param bytes The learner-token key bytes.
   * @returns The imported key, imported on first use and then kept (a resolved value, never a promise).
   */
  async learnerKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
    const known = this.#learnerKeys.get(bytes);
    if (known) return known;
    const imported = await importLearnerKey(bytes);
    this.#learnerKeys.set(bytes, imported);
    return imported;
  }

  /**
   * @param presented The `X-Relay-Key` value.
   * @returns Whether it equals one of the configured keys. Every key is compared in full, always.
   */
  async matches(presented: string): Promise<boolean> {
    // Each request may compute the digests; only the resolved array is shared (no promise crosses requests).
    this.#digests ??= await Promise.all(this.#keys.map(digest));
    const candidate = await digest(presented);
    let found = 0;
    for (const key of this.#digests) {
      let diff = 0;
      for (let i = 0; i < key.length; i += 1) diff |= (key[i] ?? 0) ^ (candidate[i] ?? 0);
      found |= Number(diff === 0);
    }
    return found === 1;
  }
}

/**
 * Establishes the caller from the request headers.
 *
 * @param headers The request's headers.
 * @param keys The relay key ring.
 * @param learnerKey The HS256 key of learner tokens.
 * @param nowMs Epoch milliseconds.
 * @returns The caller, or why there is none.
 */
export async function identifyCaller(
  headers: Headers,
  keys: RelayKeyRing,
  learnerKey: Uint8Array<ArrayBuffer>,
  nowMs: number,
): Promise<Caller | CallerFailure> {
  const relayKey = headers.get('x-relay-key');
  if (relayKey !== null) return (await keys.matches(relayKey)) ? { kind: 'backend' } : { failure: 'unauthenticated' };
  const authorization = headers.get('authorization');
  if (authorization === null) return { failure: 'unauthenticated' };
  const match = /^Bearer +([A-Za-z0-9_.~+/=-]+)$/i.exec(authorization.trim());
  if (!match?.[1]) return { failure: 'unauthenticated' };
  try {
    return { kind: 'learner', userId: await verifyLearnerToken(match[1], await keys.learnerKey(learnerKey), nowMs) };
  } catch (error) {
    if (error instanceof InvalidLearnerTokenError) return { failure: 'invalid_token' };
    throw error;
  }
}
