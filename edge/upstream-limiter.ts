/**
 * Opt-in: every isolate of the relay in one line to the service, through a Durable Object. Each isolate's client
 * otherwise learns the usage plan alone, and isolates sharing a slow or one-call plan collide and cut one another
 * down (the repository's README, "Where it falls short"); KV cannot hold a line (eventually consistent, no atomic
 * update), a Durable Object can: it is one object in one place, and requests to it may resolve one another's
 * promises (relay-facts.md, "Durable Object coordinator"). The object runs the core's limiter host
 * (`createLimiterHost`), and each isolate's client a shared limiter on it (`createSharedLimiter`): one round trip to
 * the object per call, before it goes, and one after.
 *
 * Turned on by binding the class as `UPSTREAM_LIMITER` in `wrangler.jsonc` (with its migration); left unbound, the
 * relay runs as before.
 */
import { createLimiterHost, createSharedLimiter, type Limiter } from '../core/index.ts';

/** The Durable Object: the limiter host. Its state is memory only (an evicted object learns the plan again). */
export class UpstreamLimiter {
  readonly #host = createLimiterHost();

  fetch(request: Request): Promise<Response> {
    return this.#host.fetch(request);
  }
}

/** The parts of a Durable Object namespace binding this uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

/**
 * The relay's client limiter on the bound object, or `undefined` when no API key is set (the relay then reports its
 * settings as it does without the binding).
 *
 * @param namespace The `UPSTREAM_LIMITER` binding.
 * @param apiKey The relay's `PARTNER_LEARNING_API_KEY` setting.
 * @param onHostError Told when the object cannot be reached (calls then go on, each isolate pacing alone).
 * @returns A {@link Limiter} for `createRelay({ limiter })`.
 */
export function upstreamLimiter(
  namespace: DurableObjectNamespaceLike, apiKey: unknown, onHostError?: (error: Error) => void,
): Limiter | undefined {
  if (typeof apiKey !== 'string' || apiKey === '') return undefined;
  return createSharedLimiter({
    // The object answers any URL: this one only names it in messages.
    url: 'https://upstream-limiter.durable-object/',
    apiKey,
    // Looked up per call: a stub belongs to the request that made it.
    fetch: (input, init) => namespace.get(namespace.idFromName('upstream')).fetch(new Request(input, init)),
    ...(onHostError ? { onHostError } : {}),
  });
}
