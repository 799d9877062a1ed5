/**
 * Shared set-up of the core contract suite: an emulator (in-process or over a real socket), its credentials from
 * `GET /_emulator/partners`, a fake clock shared by client and emulator, and a client factory wired to all of it.
 */
import { createClient } from '../../core/index.ts';
import type { ClientOptions, StoredToken, TokenStore } from '../../core/types/options.ts';
import type { PartnerLearningClient } from '../../core/types/client-api.ts';
import { createEmulator } from '../../emulator/index.ts';
import { startEmulatorServer } from '../../emulator/server.ts';
import { createFakeClock } from './fake-clock.ts';
import type { FakeClock } from './fake-clock.ts';
import { emulatorControl } from './core-control.ts';
import type { ClientCredentials, EmulatorControl, EnvName, EnvironmentInfo, PartnerInfo } from './core-control.ts';

export { createFakeClock, FAKE_START } from './fake-clock.ts';
export type { FakeClock, SleepCall, Sleeper } from './fake-clock.ts';

/** One response the client received, as the wire carried it. */
export interface SeenResponse {
  method: string;
  url: string;
  status: number;
  requestId: string | null;
}

/** A `fetch` that records each response's status and `x-request-id` (and each call) before the client sees it. */
export interface RecordingFetch {
  fetch: typeof fetch;
  responses: SeenResponse[];
  /** Calls made, including those that got no answer. */
  calls: { method: string; url: string }[];
}

/**
 * @param send Where requests really go.
 * @returns A recording wrapper around `send`.
 */
export function recordingFetch(send: (request: Request) => Promise<Response>): RecordingFetch {
  const responses: SeenResponse[] = [];
  const calls: { method: string; url: string }[] = [];
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    calls.push({ method: request.method, url: request.url });
    const response = await send(request);
    responses.push({
      method: request.method,
      url: request.url,
      status: response.status,
      requestId: response.headers.get('x-request-id'),
    });
    return response;
  };
  return { fetch: wrapped as typeof fetch, responses, calls };
}

/** A token store that records every call, to prove what the client keeps and under which keys. */
export class RecordingTokenStore implements TokenStore {
  readonly entries = new Map<string, StoredToken>();
  readonly sets: { key: string; token: StoredToken }[] = [];
  readonly gets: string[] = [];
  readonly deletes: string[] = [];
  /** Handed out for a key the store has never held, once per key (e.g. a token of another environment). */
  prefill: StoredToken | undefined;
  private readonly prefilled = new Set<string>();

  get(key: string): StoredToken | undefined {
    this.gets.push(key);
    if (this.prefill && !this.entries.has(key) && !this.prefilled.has(key)) {
      this.prefilled.add(key);
      this.entries.set(key, this.prefill);
    }
    return this.entries.get(key);
  }

  set(key: string, token: StoredToken): void {
    this.sets.push({ key, token });
    this.entries.set(key, token);
  }

  delete(key: string): void {
    this.deletes.push(key);
    this.entries.delete(key);
  }
}

/** A running emulator with everything a contract test needs around it. */
export interface Harness {
  origin: string;
  clock: FakeClock;
  control: EmulatorControl;
  partners: PartnerInfo[];
  /** Records what the clients created by {@link Harness.client} received. */
  wire: RecordingFetch;
  /**
   * @param pick Which partner (index), environment and client (`rw` = first, read-write; `ro` = read-only).
   * @returns That environment's addresses and API key with the chosen client.
   */
  creds(pick?: CredentialPick): Credentials;
  /**
   * @param overrides Options replacing the defaults (fake clock, recording fetch, a fresh recording token store).
   * @param pick Whose credentials.
   * @returns A client against this emulator.
   */
  client(overrides?: Partial<ClientOptions>, pick?: CredentialPick): PartnerLearningClient;
  /** The fetch that reaches the emulator, unrecorded (for raw requests a test makes itself). */
  send: (request: Request) => Promise<Response>;
  close(): Promise<void>;
}

/** Which credentials: partner index (default 0), environment (default sandbox), client (default read-write). */
export interface CredentialPick {
  partner?: number;
  env?: EnvName;
  client?: 'rw' | 'ro';
}

/** One environment's addresses and API key together with one of its clients. */
export interface Credentials extends Pick<EnvironmentInfo, 'tokenUrl' | 'baseUrl' | 'apiKey'>, ClientCredentials {
  env: EnvName;
}

/** How to start a harness. */
export interface HarnessOptions {
  /** Defaults to a fresh fake clock shared by client and emulator; `'real'` uses real time on both sides. */
  clock?: FakeClock | 'real';
}

// Each emulator gets its own seed, so API keys (and with them the client's process-wide limiter state) and client
// IDs (token cache keys) never carry over from one test to the next.
let instance = 0;
function nextSeed(): number {
  instance += 1;
  return 7000 + instance;
}

/**
 * Starts an emulator in-process: the client's fetch calls `emulator.fetch` directly.
 *
 * @param options Clock choice.
 * @returns A ready harness.
 * @example
 * ```ts
 * const h = await startInProcess();
 * const client = h.client();
 * await client.ping();
 * ```
 */
export async function startInProcess(options: HarnessOptions = {}): Promise<Harness> {
  const seed = nextSeed();
  const clock = options.clock === 'real' ? realClock() : (options.clock ?? createFakeClock());
  const emulator = createEmulator({ seed, now: clock.now });
  const origin = `http://emulator-${seed}.test`;
  const send = (request: Request): Promise<Response> => emulator.fetch(request);
  return assemble(origin, clock, send, async () => undefined);
}

/**
 * Starts an emulator on a real socket (`127.0.0.1`, a free port); the client uses the global `fetch`.
 *
 * @param options Clock choice.
 * @returns A ready harness; call `close()` when done.
 */
export async function startOverSockets(options: HarnessOptions = {}): Promise<Harness> {
  const clock = options.clock === 'real' ? realClock() : (options.clock ?? createFakeClock());
  const server = await startEmulatorServer({ port: 0, seed: nextSeed(), now: clock.now });
  const send = (request: Request): Promise<Response> => fetch(request);
  return assemble(server.origin, clock, send, () => server.close());
}

async function assemble(
  origin: string,
  clock: FakeClock,
  send: (request: Request) => Promise<Response>,
  close: () => Promise<void>,
): Promise<Harness> {
  const control = emulatorControl(origin, send);
  const partners = await control.partners();
  const wire = recordingFetch(send);
  const creds = (pick: CredentialPick = {}): Credentials => credentialsOf(partners, pick);
  return {
    origin,
    clock,
    control,
    partners,
    wire,
    creds,
    send,
    close,
    client(overrides = {}, pick = {}) {
      const c = creds(pick);
      return createClient({
        tokenUrl: c.tokenUrl,
        baseUrl: c.baseUrl,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        apiKey: c.apiKey,
        environment: c.env,
        fetch: wire.fetch,
        now: clock.now,
        sleep: clock.sleep,
        tokenStore: new RecordingTokenStore(),
        ...overrides,
      });
    },
  };
}

/**
 * @param partners What `GET /_emulator/partners` answered.
 * @param pick Which partner, environment and client.
 * @returns The credentials.
 * @throws Error when the emulator has no such partner or client.
 */
export function credentialsOf(partners: PartnerInfo[], pick: CredentialPick = {}): Credentials {
  const env = pick.env ?? 'sandbox';
  const environment = partners[pick.partner ?? 0]?.environments[env];
  if (!environment) throw new Error(`the emulator has no partner ${pick.partner ?? 0} in ${env}`);
  const client =
    pick.client === 'ro'
      ? environment.clients.find((c) => !c.scopes.includes('partner-api/write'))
      : environment.clients[0];
  if (!client) throw new Error(`partner ${pick.partner ?? 0} has no ${pick.client ?? 'rw'} client in ${env}`);
  return { env, tokenUrl: environment.tokenUrl, baseUrl: environment.baseUrl, apiKey: environment.apiKey, ...client };
}

function realClock(): FakeClock {
  const clock = createFakeClock(Date.now());
  clock.now = () => Date.now();
  clock.sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  return clock;
}
