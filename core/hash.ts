/**
 * The one hash for keeping secrets out of map and store keys: SHA-256 (Web Crypto, in every runtime the client
 * supports). A cryptographic hash, because a token store key may be persisted (Workers KV, Redis) and must not let
 * anyone confirm a guessed secret cheaply.
 */

/**
 * @param text Any text (UTF-8 encoded before hashing).
 * @returns The SHA-256 digest as 64 lower-case hex characters.
 * @example
 * await sha256Hex('abc'); // 'ba7816bf…'
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
