/**
 * The partner backend's side of the relay: the calls only a backend may make, each with the relay key in
 * `X-Relay-Key`. The key never leaves this process; the browser receives learner tokens only.
 */

/** Where the relay is and the key this backend presents. */
export interface RelayAccess {
  /** The relay's origin, e.g. `http://127.0.0.1:4011`. */
  origin: string;
  /** One of the relay's RELAY_KEYS. */
  key: string;
}

/** The demo learner the page acts for (registration is idempotent per e-mail, so this also finds them). */
export interface DemoLearner {
  email: string;
  firstName: string;
  lastName: string;
}

/** A failed relay call: the relay's status and problem code, never a header or a key. */
export class RelayCallError extends Error {
  override readonly name = 'RelayCallError';
  /** The relay's HTTP status (0 when it could not be reached). */
  readonly status: number;
  /** The problem `code` the relay answered, or `relay_unreachable`. */
  readonly code: string;
  /**
   * @param status the relay's HTTP status.
   * @param code the problem code.
   * @param message what failed and what to check.
   */
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(relay: RelayAccess, method: string, path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${relay.origin}/v1${path}`, {
      method,
      redirect: 'manual',
      headers: { 'x-relay-key': relay.key, accept: 'application/ld+json, application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new RelayCallError(0, 'relay_unreachable', `${method} /v1${path}: the relay at ${relay.origin} did not answer; is it running?`);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const problem = (data ?? {}) as { code?: string; detail?: string; title?: string };
    throw new RelayCallError(res.status, problem.code ?? 'relay_error', `${method} /v1${path} answered ${res.status}: ${problem.detail ?? problem.title ?? 'no detail'}`);
  }
  return data;
}

const members = (page: unknown): Array<Record<string, unknown>> => {
  const p = page as Record<string, unknown>;
  return ((p['hydra:member'] ?? p['member'] ?? []) as Array<Record<string, unknown>>);
};

/**
 * Registers the demo learner, or finds them: the service answers an existing registration with the same record.
 * @returns the learner's UUID.
 * @throws RelayCallError when the relay or the service refuses.
 */
export async function registerLearner(relay: RelayAccess, learner: DemoLearner): Promise<string> {
  const [organization] = members(await call(relay, 'GET', '/organizations'));
  if (typeof organization?.id !== 'number') throw new RelayCallError(502, 'no_organization', 'GET /v1/organizations listed no organization to register the demo learner in');
  const user = (await call(relay, 'POST', '/users/register', { ...learner, organizationId: organization.id })) as { uuid?: unknown };
  if (typeof user.uuid !== 'string') throw new RelayCallError(502, 'bad_response', 'POST /v1/users/register answered without a uuid');
  return user.uuid;
}

/** A learner token as the relay mints it. */
export interface LearnerToken {
  token: string;
  userId: string;
  expiresAt: string;
}

/**
 * @param ttlSeconds 60..3600.
 * @returns a learner token for `userId`.
 * @throws RelayCallError (404 not the partner's learner, 403 inactive).
 */
export async function mintLearnerToken(relay: RelayAccess, userId: string, ttlSeconds: number): Promise<LearnerToken> {
  return (await call(relay, 'POST', '/learner-tokens', { userId, ttlSeconds })) as LearnerToken;
}

/**
 * The service's own time, so the page can tell how long a content URL has left even when the service's clock is
 * not the browser's (the emulator's clock can be moved). Falls back to this machine's time.
 * @returns epoch ms.
 */
export async function serviceTime(relay: RelayAccess): Promise<number> {
  const ping = (await call(relay, 'GET', '/ping').catch(() => null)) as { time?: unknown } | null;
  const at = typeof ping?.time === 'string' ? Date.parse(ping.time) : NaN;
  return Number.isFinite(at) ? at : Date.now();
}
