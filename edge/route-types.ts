/** The shape of the relay's route table: who may call a route, what an operation gets and returns. Types only. */
import type { LearnerClient, PartnerLearningClient } from '../core/index.ts';
import type { z } from '../core/validation/zod.ts';
import type { Caller } from './caller.ts';
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
  /**
   * The client bound to the learner to act for (user-scoped operations): the token's `sub`, or the backend's
   * `X-User-ID`; every call through it sends that `X-User-ID`.
   */
  learner: LearnerClient;
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
  /** The schema the body is checked with (by the relay or the core call): the OpenAPI document renders it. */
  bodySchema?: z.ZodType;
  run(ctx: RunContext): Promise<Upstream | Response>;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Route {
  /** Hono path pattern under the relay's origin. */
  path: string;
  params?: Record<string, ParamKind>;
  methods: Partial<Record<Method, RouteOperation>>;
}

/** What the inputs step leaves for the call. */
export interface RouteInputs {
  op: RouteOperation;
  /** The learner to act for; empty on routes that are not user-scoped. */
  userId: string;
  body: unknown;
}

/** The Hono environment of the relay app: what each middleware leaves for the next. */
export interface RelayEnv {
  Variables: {
    /** The relay's own id for this request (`hono/request-id`; never the caller's). */
    requestId: string;
    /** When the request arrived (the deadline counts from here). */
    arrivedAt: number;
    /** The matched route's operation for this method. */
    op: RouteOperation;
    /** Who is calling, once authenticated. */
    caller: Caller;
    /** The checked inputs of the call. */
    inputs: RouteInputs;
  };
}
