/**
 * The emulator's control interface (`/_emulator/...`, see the emulator contract), typed for the core contract
 * suite. It talks HTTP only, so the same helper drives the emulator in-process and over a socket.
 */

/** The emulator's two environments. */
export type EnvName = 'sandbox' | 'production';

/** One OAuth client of a partner in one environment. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

/** A partner's addresses, API key and clients in one environment. */
export interface EnvironmentInfo {
  tokenUrl: string;
  baseUrl: string;
  apiKey: string;
  clients: ClientCredentials[];
}

/** A partner as `GET /_emulator/partners` lists it. */
export interface PartnerInfo {
  id: string | number;
  name: string;
  environments: Record<EnvName, EnvironmentInfo>;
}

/** One entry of `GET /_emulator/requests`. */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  env?: string;
  at: string;
  query?: string;
}

/** A module in `GET /_emulator/catalog` (published or not). */
export interface CatalogModule {
  id: number;
  contentType: 'video' | 'document' | 'scorm' | 'resource';
  passingScore: number | null;
  published: boolean;
}

/** A course in `GET /_emulator/catalog`, with its modules. */
export interface CatalogCourse {
  id: number;
  published: boolean;
  modules: CatalogModule[];
}

/** The body of `POST /_emulator/faults`; status 0 drops the connection. */
export interface FaultSpec {
  rate: number;
  statuses: number[];
  afterCommit?: boolean;
  latencyMs?: number;
  pathPattern?: string;
  seed?: number;
}

/** The body of `PUT /_emulator/usage-plans/{apiKey}`. */
export interface UsagePlan {
  ratePerSecond: number;
  burst: number;
  dailyQuota: number;
}

/** Typed calls to the control interface. */
export interface EmulatorControl {
  partners(): Promise<PartnerInfo[]>;
  catalog(env?: EnvName): Promise<CatalogCourse[]>;
  reset(): Promise<void>;
  /** @returns The emulator's new time (ISO). */
  advanceClock(seconds: number): Promise<string>;
  setUsagePlan(apiKey: string, plan: UsagePlan): Promise<void>;
  setFaults(fault: FaultSpec): Promise<void>;
  clearFaults(): Promise<void>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  scormCompletion(body: { env: EnvName; userUuid: string; moduleId: number; score: number }): Promise<void>;
}

/**
 * @param origin The emulator's origin, e.g. `http://127.0.0.1:4010`.
 * @param send How to send a request (the emulator's in-process `fetch`, or the global one over a socket).
 * @returns The control calls; each throws when the emulator answers with an error status.
 */
export function emulatorControl(origin: string, send: (request: Request) => Promise<Response>): EmulatorControl {
  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const response = await send(new Request(`${origin}/_emulator${path}`, init));
    const text = await response.text();
    if (!response.ok) throw new Error(`emulator control ${method} ${path} answered ${response.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
  return {
    partners: async () => (await call('GET', '/partners')) as PartnerInfo[],
    catalog: async (env = 'sandbox') => {
      const answer = (await call('GET', `/catalog?env=${env}`)) as CatalogCourse[] | { courses: CatalogCourse[] };
      return Array.isArray(answer) ? answer : answer.courses;
    },
    reset: async () => void (await call('POST', '/reset')),
    advanceClock: async (seconds) => ((await call('POST', '/clock', { advanceSeconds: seconds })) as { now: string }).now,
    setUsagePlan: async (apiKey, plan) => void (await call('PUT', `/usage-plans/${encodeURIComponent(apiKey)}`, plan)),
    setFaults: async (fault) => void (await call('POST', '/faults', fault)),
    clearFaults: async () => void (await call('DELETE', '/faults')),
    requests: async () => (await call('GET', '/requests')) as LoggedRequest[],
    clearRequests: async () => void (await call('DELETE', '/requests')),
    scormCompletion: async (body) => void (await call('POST', '/scorm-completions', body)),
  };
}

/**
 * @param log The request log.
 * @param pattern Matched against the logged path (e.g. `/v1/users/register$`).
 * @returns The entries whose path matches.
 */
export function requestsTo(log: LoggedRequest[], pattern: RegExp): LoggedRequest[] {
  return log.filter((entry) => pattern.test(entry.path));
}

/**
 * @param log The request log.
 * @returns The token endpoint calls in it.
 */
export function tokenRequests(log: LoggedRequest[]): LoggedRequest[] {
  return requestsTo(log, /\/oauth2\/token$/);
}

/**
 * @param log The request log.
 * @returns The API calls (under `/v1`) in it.
 */
export function apiRequests(log: LoggedRequest[]): LoggedRequest[] {
  return requestsTo(log, /\/v1(\/|$)/);
}
