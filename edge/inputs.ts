/**
 * The relay's own input checks as zod schemas: path ids, the collection query and the learner-token body. The
 * handlers validate with these very objects and the OpenAPI document is generated from them (edge/openapi/), so
 * the two cannot disagree. Bodies of core calls (registration, profile patch) are checked by the core's schemas,
 * which the document uses as well.
 */
import { z } from '../core/validation/zod.ts';
import { MAX_PAGE_SIZE, uuidSchema } from '../core/protocol.ts';
import { MAX_LIFETIME_SECONDS, MIN_TTL_SECONDS } from './learner-token.ts';
import type { ParamKind } from './route-types.ts';

/**
 * Path parameters: positive whole numbers for records (at most 15 digits, so every one is a safe integer the core
 * accepts), UUIDs for learners.
 */
export const pathParamSchemas: Record<ParamKind, z.ZodString> = {
  id: z.string().regex(/^[1-9][0-9]{0,14}$/, { error: 'Must be a positive whole number (the record id).' })
    .meta({ description: 'The record id: a positive whole number (from the collection, `id`).', examples: ['1'] }),
  uuid: uuidSchema.meta({ description: 'The learner UUID (`uuid` from registration).', examples: ['3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'] }),
};

/**
 * `^(?:[1-9]|[1-9][0-9]|...)$` for 1 to `max`: a pattern (not a number check after parsing) so the document states
 * the bound exactly as the relay checks it.
 */
export function wholeUpTo(max: number): string {
  const digits = String(max);
  const alternatives: string[] = [];
  for (let length = 1; length < digits.length; length++) alternatives.push(`[1-9]${length > 1 ? `[0-9]{${length - 1}}` : ''}`);
  // Numbers with as many digits as max, up to max: the prefixes of max, then a smaller digit, then anything.
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[i]);
    const low = i === 0 ? 1 : 0;
    if (digit > low) alternatives.push(`${digits.slice(0, i)}[${low}-${digit - 1}]${i < digits.length - 1 ? `[0-9]{${digits.length - 1 - i}}` : ''}`);
  }
  alternatives.push(digits);
  return `^(?:${alternatives.join('|')})$`;
}

/** The query a collection route passes on (anything else is dropped). Values are strings, as in a URL. */
export const listQuerySchemas: Record<string, z.ZodType> = {
  page: z.string().regex(/^[1-9][0-9]{0,8}$/, { error: 'Must be a positive whole number.' })
    .meta({ description: 'The page, 1-based.', examples: ['1'] }),
  itemsPerPage: z.string().regex(new RegExp(wholeUpTo(MAX_PAGE_SIZE)), { error: `Must be a whole number from 1 to ${MAX_PAGE_SIZE}.` })
    .meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}.`, examples: ['30'] }),
  ...Object.fromEntries(['after', 'strictly_after', 'before', 'strictly_before'].map((f) => [
    `updatedAt[${f}]`,
    z.iso.datetime({ offset: true }).meta({ description: `Only records updated ${f.replace('_', ' ')} this instant (delta sync).`, examples: ['2026-01-01T00:00:00Z'] }),
  ])),
};

/** `POST /v1/learner-tokens`. */
export const learnerTokenBodySchema = z.object({
  userId: uuidSchema.meta({ description: 'The learner to mint the token for (`uuid` from registration).' }),
  ttlSeconds: z.int({ error: `Must be a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_LIFETIME_SECONDS}.` })
    .min(MIN_TTL_SECONDS, { error: `Must be a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_LIFETIME_SECONDS}.` })
    .max(MAX_LIFETIME_SECONDS, { error: `Must be a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_LIFETIME_SECONDS}.` })
    .optional().meta({ description: `Lifetime in seconds, ${MIN_TTL_SECONDS} to ${MAX_LIFETIME_SECONDS} (default 900).` }),
}, { error: 'The body must be a JSON object {"userId", "ttlSeconds"?}.' }).meta({
  description: 'Whom the token is for, and for how long.',
  examples: [{ userId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', ttlSeconds: 900 }],
});
