/**
 * The schemas the relay's document names (`components.schemas`): records as the service returns them (core's
 * zod models), the relay's own answers (learner token, problem) and the request bodies the routes check with.
 */
import { recordComponents } from '../../core/validation/records.ts';
import { z } from '../../core/validation/zod.ts';

/**
 * Known problem `code` values (relay contract, "Errors"). The set is open (the core's codes pass through), so the
 * schema lists them as examples, not an enum a new code would break.
 */
export const PROBLEM_CODES = [
  'validation_failed', 'not_found', 'inactive_learner', 'missing_scope', 'conflict', 'quota_exceeded', 'throttled',
  'unauthenticated', 'invalid_token', 'forbidden', 'rate_limited', 'relay_misconfigured', 'upstream_unavailable',
  'upstream_auth_failed', 'upstream_timeout', 'upstream_invalid', 'payload_too_large', 'unsupported_media_type',
] as const;

const problemSchema = z.looseObject({
  type: z.string().meta({ description: 'A URI naming the kind of problem.' }),
  title: z.string(),
  status: z.int().meta({ description: 'The HTTP status, repeated.' }),
  detail: z.string().meta({ description: 'What to fix, for people. Never holds a secret.' }),
  code: z.string().meta({ description: 'The stable code to branch on.', examples: [...PROBLEM_CODES] }),
  violations: z.array(z.object({ propertyPath: z.string(), message: z.string() })).optional()
    .meta({ description: 'With `validation_failed`: which field, and what to fix.' }),
}).meta({ description: 'An RFC 9457 problem (application/problem+json).' });

const learnerTokenSchema = z.object({
  token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>` from the browser.' }),
  userId: z.string().meta({ description: 'The learner the token acts for.' }),
  expiresAt: z.string().meta({ format: 'date-time', description: 'When the token stops working.' }),
}).meta({ description: 'A short-lived token that lets a browser act for one learner.' });

/** Answers, by component name (collections are named `<Record>Collection`). */
export const outputSchemas: Record<string, z.ZodType> = {
  ...recordComponents,
  LearnerToken: learnerTokenSchema,
  Problem: problemSchema,
};
