/**
 * The one place hashes are made. `sha256Hex`/`sha256Bytes` (Web Crypto, in every runtime the client supports) for
 * keys that may be persisted (a token store key in Workers KV or Redis must not let anyone confirm a guessed secret
 * cheaply) and for constant-time comparisons; `fingerprint`, synchronous and non-cryptographic, for in-memory map
 * keys that must not hold a secret in clear (a heap dump or a debug print of the map shows only the fingerprint)
 * and must be computed without awaiting (no promise shared between callers).
 */

/**
 * @param text Any text (UTF-8 encoded before hashing).
 * @returns The SHA-256 digest.
 */
export async function sha256Bytes(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * @param text Any text (UTF-8 encoded before hashing).
 * @returns The SHA-256 digest as 64 lower-case hex characters.
 * @example
 * await sha256Hex('abc'); // 'ba7816bf…'
 */
export async function sha256Hex(text: string): Promise<string> {
  return [...(await sha256Bytes(text))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A non-cryptographic 2×53-bit hash (cyrb53 with two seeds), for in-memory map keys only.
 *
 * @param value Any text, such as an API key.
 * @returns About 22 base-36 characters; equal inputs give equal fingerprints.
 */
export function fingerprint(value: string): string {
  const run = (seed: number): string => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < value.length; i++) {
      const ch = value.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  return `${run(1)}.${run(2)}`;
}
