/**
 * The remaining error classes the emulator can provoke, each with its `code`, `status`, `retryable`, the
 * `x-request-id` of the answer that caused it, and how many requests it took (answers never retried take one).
 */
import { describe, expect, it } from 'vitest';
import {
  ApplicationError,
  AuthenticationError,
  ConflictError,
  MissingScopeError,
  PartnerLearningError,
  QuotaExceededError,
  ThrottledError,
  TokenEndpointError,
} from '../../../core/index.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { apiRequests, tokenRequests } from '../../support/core-control.ts';
import { firstOrganizationId, pickCatalog, registerLearner } from '../../support/core-fixtures.ts';

interface Case {
  name: string;
  /** Sets the emulator up, then makes the failing call. */
  provoke: (h: Harness) => Promise<unknown>;
  type: new (...args: never[]) => PartnerLearningError;
  code: string;
  /** The API status; token endpoint answers may be 400 or 401 for invalid_client. */
  status?: number;
  retryable: boolean;
  /** Answers with `status` the failing call received, at the API or at the token endpoint. */
  answers: number;
  at: 'api' | 'token';
}

const cases: Case[] = [
  {
    name: 'ConflictError (409, SCORM complete)',
    provoke: async (h) => {
      const client = h.client();
      const [picks, learner] = await Promise.all([pickCatalog(h.control), registerLearner(client)]);
      return client.modules.complete(picks.scorm.id, { userId: learner.uuid });
    },
    type: ConflictError, code: 'conflict', status: 409, retryable: false, answers: 1, at: 'api',
  },
  {
    name: 'MissingScopeError (403 naming the scope)',
    provoke: async (h) => {
      const reader = h.client({ scopes: ['partner-api/read'] }, { client: 'ro' });
      const organizationId = await firstOrganizationId(reader);
      return reader.users.register({ email: 'x@example.com', firstName: 'X', lastName: 'Y', organizationId });
    },
    type: MissingScopeError, code: 'missing_scope', status: 403, retryable: false, answers: 1, at: 'api',
  },
  {
    name: 'AuthenticationError (persistent 401)',
    provoke: async (h) => {
      const sandbox = h.creds();
      return h.client({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }, { env: 'production' }).categories.get(1);
    },
    type: AuthenticationError, code: 'authentication_failed', status: 401, retryable: false, answers: 2, at: 'api',
  },
  {
    name: 'ThrottledError (429 Too Many Requests after the retries)',
    provoke: async (h) => {
      await h.control.setFaults({ rate: 1, statuses: [429], pathPattern: '/v1/' });
      return h.client({ retry: { maxAttempts: 3 } }).categories.get(1);
    },
    type: ThrottledError, code: 'throttled', status: 429, retryable: true, answers: 3, at: 'api',
  },
  {
    name: 'QuotaExceededError (429 Limit Exceeded, not retried)',
    provoke: async (h) => {
      await h.control.setUsagePlan(h.creds().apiKey, { ratePerSecond: 100, burst: 100, dailyQuota: 0 });
      return h.client().categories.list().toArray({ max: 1 });
    },
    type: QuotaExceededError, code: 'quota_exceeded', status: 429, retryable: false, answers: 1, at: 'api',
  },
  {
    name: 'ApplicationError (400 that is not a validation failure, not retried)',
    provoke: async (h) => {
      await h.control.setFaults({ rate: 1, statuses: [400], pathPattern: '/v1/' });
      return h.client().categories.list().toArray({ max: 1 });
    },
    type: ApplicationError, code: 'application_error', status: 400, retryable: false, answers: 1, at: 'api',
  },
  {
    name: 'ApplicationError (415, not retried)',
    provoke: async (h) => {
      await h.control.setFaults({ rate: 1, statuses: [415], pathPattern: '/v1/' });
      return h.client().categories.list().toArray({ max: 1 });
    },
    type: ApplicationError, code: 'application_error', status: 415, retryable: false, answers: 1, at: 'api',
  },
  {
    name: 'TokenEndpointError (invalid_client)',
    provoke: async (h) => h.client({ clientSecret: 'w'.repeat(48) }).categories.get(1),
    type: TokenEndpointError, code: 'token_endpoint_error', retryable: false, answers: 1, at: 'token',
  },
];

describe('error classes with code, status, request id and retryable', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const h = await startInProcess();
      const error = await c.provoke(h).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(c.type);
      const e = error as PartnerLearningError;
      expect(e.code).toBe(c.code);
      expect(e.retryable).toBe(c.retryable);
      const log = await h.control.requests();
      const own = c.at === 'api' ? apiRequests(log) : tokenRequests(log);
      const path = c.at === 'api' ? '/v1/' : '/oauth2/token';
      const answer = h.wire.responses.filter((r) => r.url.includes(path)).at(-1)!;
      if (c.at === 'api') {
        expect(e.status).toBe(c.status);
        expect(own.filter((r) => r.status === c.status)).toHaveLength(c.answers);
        expect(own.filter((r) => r.status >= 400)).toHaveLength(c.answers);
        expect(answer.status).toBe(c.status);
      } else {
        expect([400, 401]).toContain(e.status);
        expect(own).toHaveLength(c.answers);
        expect((error as TokenEndpointError).oauthError).toBe('invalid_client');
      }
      expect(answer.requestId).toBeTruthy();
      expect(e.requestId).toBe(answer.requestId);
    });
  }
});
