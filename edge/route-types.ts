/** The shape of the relay's route table: who may call a route, what an operation gets and returns. Types only. */
import type { PartnerLearningClient } from '../core/index.ts';
import type { Upstream, UpstreamCapture } from './upstream.ts';

/** Who may call an operation. */
export type Access = 'backend' | 'learner' | 'both';

/** The kinds of path parameter: positive integer ids, or learner UUIDs. */
export type ParamKind = 'id' | 'uuid';

/** Everything an operation gets, every input already checked. */
export interface RunContext {
  client: PartnerLearningClient;
  /** Path parameters, validated against the route's kinds. */
  params: Record<string, string>;
  /** The learner to act for (user-scoped operations): the token's `sub`, or the backend's `X-User-ID`. */
  userId: string;
  /** The parsed JSON body (operations with a body). */
  body: unknown;
  /** The request's query (collection routes read only the allowlisted parameters). */
  query: URLSearchParams;
  capture: UpstreamCapture;
  /** Signs a learner token (for `POST /v1/learner-tokens`). */
  mintToken(userId: string, ttlSeconds: number): Promise<{ token: string; userId: string; expiresAt: string }>;
}

export interface RouteOperation {
  access: Access;
  /** Sends `X-User-ID` upstream. */
  userScoped?: boolean;
  /** The request carries a JSON body (`merge-patch` requires `application/merge-patch+json`). */
  body?: 'json' | 'merge-patch';
  run(ctx: RunContext): Promise<Upstream | Response>;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Route {
  /** Hono path pattern under the relay's origin. */
  path: string;
  params?: Record<string, ParamKind>;
  methods: Partial<Record<Method, RouteOperation>>;
}
