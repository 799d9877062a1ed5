/**
 * Rewrites the service's links in a JSON body (`@id`, `hydra:next`, references such as `category`) so they point
 * at the relay: a caller that follows them stays on the relay and never learns the service's address. Only strings
 * under the service's base path are touched; anything else (signed content URLs included) is left as sent.
 */

/**
 * Builds a rewriter from the service's base URL to the relay's `/v1`, for each string of a body (the scrubber's walk
 * applies it, so an answer is copied once: `scrub.json(body, rewrite)`).
 *
 * @param baseUrl The service base URL (ends in `/v1`, no trailing slash).
 * @param relayV1 The relay's absolute `/v1` address for this request, e.g. `https://relay.example/v1`.
 * @returns A function from a string to the string pointing at the relay (others unchanged).
 * @example
 * const rewrite = linkRewriter('https://api.example/sandbox/v1', 'https://relay.example/v1');
 * rewrite('/sandbox/v1/courses?page=2'); // 'https://relay.example/v1/courses?page=2'
 */
export function linkRewriter(baseUrl: string, relayV1: string): (text: string) => string {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const prefixes = [`${base.origin}${basePath}`, basePath];

  return (text) => {
    for (const prefix of prefixes) {
      if (text === prefix) return relayV1;
      if (text.startsWith(prefix) && (text[prefix.length] === '/' || text[prefix.length] === '?')) {
        return `${relayV1}${text.slice(prefix.length)}`;
      }
    }
    return text;
  };
}
