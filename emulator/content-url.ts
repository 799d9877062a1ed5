import type { KeyStore } from './keys.ts';
import type { EnvName } from './types.ts';

const hex = (bytes: ArrayBuffer | Uint8Array) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
const encoder = new TextEncoder();

function payload(env: EnvName, moduleId: number, learner: string, expires: string, nonce: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${env}|${moduleId}|${learner}|${expires}|${nonce}`);
}

/**
 * Signs a content URL on the emulator itself (CloudFront-style signed URL: HMAC-SHA256 over env, module,
 * learner, expiry and a nonce, so a refresh always gives a new URL).
 * @param origin the emulator origin as the caller reached it.
 * @param expiresMs expiry on the emulator clock, epoch ms.
 * @returns `{origin}/{env}/content/{moduleId}?learner=..&expires=..&n=..&sig=..`
 */
export async function signContentUrl(keys: KeyStore, origin: string, env: EnvName, moduleId: number, learner: string, expiresMs: number): Promise<string> {
  const nonce = hex(crypto.getRandomValues(new Uint8Array(8)));
  const expires = String(expiresMs);
  const sig = await crypto.subtle.sign('HMAC', await keys.contentHmac(env), payload(env, moduleId, learner, expires, nonce));
  const query = new URLSearchParams({ learner, expires, n: nonce, sig: hex(sig) });
  return `${origin}/${env}/content/${moduleId}?${query}`;
}

/**
 * @param now emulator clock, epoch ms.
 * @returns `ok`, `expired` (signature fine, past expiry) or `invalid` (tampered or incomplete).
 */
export async function checkContentUrl(keys: KeyStore, env: EnvName, moduleId: number, params: URLSearchParams, now: number): Promise<'ok' | 'expired' | 'invalid'> {
  const learner = params.get('learner');
  const expires = params.get('expires');
  const nonce = params.get('n');
  const sig = params.get('sig');
  if (!learner || !expires || !nonce || !sig || !/^[0-9a-f]{64}$/.test(sig) || !/^\d+$/.test(expires)) return 'invalid';
  const sigBytes = new Uint8Array(sig.match(/../g)?.map((h) => parseInt(h, 16)) ?? []);
  const valid = await crypto.subtle.verify('HMAC', await keys.contentHmac(env), sigBytes, payload(env, moduleId, learner, expires, nonce));
  if (!valid) return 'invalid';
  return now > Number(expires) ? 'expired' : 'ok';
}
