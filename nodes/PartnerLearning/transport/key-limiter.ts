/**
 * The core's limiter, one per API key, shared by every item, execution and node run in this n8n process: the usage
 * plan's limits belong to the key, so a 429 or 5xx seen by one call pauses every call with that key, and the learned
 * rate is the key's. The registry is plain module state (n8n loads a node file once per process; the bundle may use
 * no `globalThis`, timers or `process`); keys are stored as the core's fingerprint, never in clear.
 *
 * When the credential names a limiter host (queue-mode workers, several n8n instances on one key), the key's limiter
 * is the core's shared limiter instead: every process's calls wait in the host's one line (`core/http/shared-limiter.ts`),
 * reached through n8n's own HTTP helper, and each process paces alone while the host is down.
 */
import { sleep as n8nSleep, type IHttpRequestOptions } from 'n8n-workflow';
import {
  createLimiter, fingerprint, raceAbort, sharedLimiterOn, type Limiter, type SharedLimiterRuntime,
} from '../../../core/protocol.ts';

/** The time a limiter lives in: its state means nothing on another clock. */
export interface LimiterClock {
  /** Epoch ms. */
  now: () => number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Makes a signal-less sleep (n8n's) honour an abort signal: it rejects with the signal's reason at once when the
 * signal is or becomes aborted (the underlying sleep then runs out unobserved).
 *
 * @param sleep Resolves after `ms`.
 * @returns A sleep that takes a signal.
 */
export function abortableSleep(sleep: (ms: number) => Promise<void>): LimiterClock['sleep'] {
  return async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    await raceAbort(ms > 0 ? sleep(ms) : Promise.resolve(), signal);
  };
}

/** The process's clock: `Date.now` and n8n's `sleep` (no timers of our own). */
export const PROCESS_CLOCK: LimiterClock = { now: () => Date.now(), sleep: abortableSleep((ms) => n8nSleep(ms)) };

/** A limiter host the credential names, and how this node run reaches it. */
export interface LimiterHostSetting {
  /** The host's http(s) URL (the credential's Limiter Host URL). */
  url: string;
  /** Its bearer token, if it has one. */
  token?: string | undefined;
  /** A fetch on n8n's HTTP helper (`helperFetch`). */
  fetch: SharedLimiterRuntime['fetch'];
  /** Where a host that cannot be reached is told (n8n's logger): the calls go on, paced by this process alone. */
  warn: (message: string) => void;
}

/** A key's limiter and, for a shared one, the node run it reaches the host through (the latest one). */
interface Entry {
  limiter: Limiter;
  via?: Pick<LimiterHostSetting, 'fetch' | 'warn'>;
}

const limiters = new WeakMap<LimiterClock, Map<string, Entry>>();

/**
 * @param apiKey The credential's API key (hashed before use; never kept in clear).
 * @param clock The clock the limiter runs on: the process's in n8n; tests give their own.
 * @param host The credential's limiter host, if it names one.
 * @returns The key's limiter on that clock (through that host), created on first use.
 * @throws {ConfigurationError} When the host's URL is not an http(s) URL, or carries a user name or password
 *   (`partnerLearningClient` says which credential field to fix).
 */
export function limiterForKey(apiKey: string, clock: LimiterClock = PROCESS_CLOCK, host?: LimiterHostSetting): Limiter {
  let byKey = limiters.get(clock);
  if (!byKey) {
    byKey = new Map();
    limiters.set(clock, byKey);
  }
  const id = host ? `${fingerprint(apiKey)}|${host.url}|${host.token ? fingerprint(host.token) : ''}` : fingerprint(apiKey);
  let entry = byKey.get(id);
  if (!entry) {
    entry = host ? sharedEntry(apiKey, clock, host) : { limiter: createLimiter({ now: clock.now, sleep: clock.sleep }) };
    byKey.set(id, entry);
  }
  // The limiter outlives the node run that created it: the host is reached through the latest run's helper.
  if (host && entry.via) Object.assign(entry.via, { fetch: host.fetch, warn: host.warn });
  return entry.limiter;
}

function sharedEntry(apiKey: string, clock: LimiterClock, host: LimiterHostSetting): Entry {
  const via = { fetch: host.fetch, warn: host.warn };
  const limiter = sharedLimiterOn(
    {
      url: host.url, apiKey, token: host.token,
      // The host's own words name the core's option; here the token is a credential field.
      onHostError: (error) => via.warn(`Partner Learning: ${error.message.replace('pass the host\'s token to createSharedLimiter', 'check the credential\'s Limiter Host Token')}; this worker paces its calls alone meanwhile`),
    },
    { now: clock.now, sleep: clock.sleep, fetch: (input, init) => via.fetch(input, init), inWorkerd: false },
  );
  return { limiter, via };
}

/**
 * A `fetch` for the shared limiter on n8n's own HTTP helper, so n8n's proxy and outbound policy apply to the host too.
 * Plain `httpRequest`, not `httpRequestWithAuthentication`: the host is not the service, and must not be sent the
 * service's token or API key (it gets the key's SHA-256 and its own bearer token, from the shared limiter).
 *
 * @param ctx The node's `this` (any context with `helpers.httpRequest`).
 * @returns What `sharedLimiterOn` takes as its runtime's fetch.
 */
export function helperFetch(ctx: { helpers: { httpRequest(options: IHttpRequestOptions): Promise<unknown> } }): SharedLimiterRuntime['fetch'] {
  return async (input, init) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const answer = (await ctx.helpers.httpRequest({
      method: (init.method ?? 'POST') as IHttpRequestOptions['method'], url: input.toString(), headers, body: typeof init.body === 'string' ? init.body : undefined,
      json: false, encoding: 'text', returnFullResponse: true, ignoreHttpStatusErrors: true, disableFollowRedirect: true,
      ...(init.signal ? { abortSignal: init.signal } : {}),
    })) as { body?: unknown; statusCode: number };
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? null);
    return new Response([204, 205, 304].includes(answer.statusCode) ? null : body, { status: answer.statusCode });
  };
}
