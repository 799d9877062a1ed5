/**
 * Rewrites the service's links in a JSON body (`@id`, `hydra:next`, references such as `category`) so they point
 * at the relay: a caller that follows them stays on the relay and never learns the service's address. Only strings
 * under the service's base path are touched; anything else (signed content URLs included) is left as sent.
 */

/**
 * Builds a rewriter from the service's base URL to the relay's `/v1`.
 *
 * @param baseUrl The service base URL (ends in `/v1`, no trailing slash).
 * @param relayV1 The relay's absolute `/v1` address for this request, e.g. `https://relay.example/v1`.
 * @returns A function that returns a rewritten deep copy of a parsed JSON value.
 * @example
 * const rewrite = linkRewriter('https://api.example/sandbox/v1', 'https://relay.example/v1');
 * rewrite({ '@id': '/sandbox/v1/courses?page=2' }); // { '@id': 'https://relay.example/v1/courses?page=2' }
 */
export function linkRewriter(baseUrl: string, relayV1: string): (value: unknown) => unknown {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const prefixes = [`${base.origin}${basePath}`, basePath];

  const rewriteString = (text: string): string => {
    for (const prefix of prefixes) {
      if (text === prefix) return relayV1;
      if (text.startsWith(prefix) && (text[prefix.length] === '/' || text[prefix.length] === '?')) {
        return `${relayV1}${text.slice(prefix.length)}`;
      }
    }
    return text;
  };

  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return rewriteString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) out[key] = walk(inner);
      return out;
    }
    return value;
  };
  return walk;
}
