/**
 * Turns zod results into the client's `ValidationError` (origin `client`), thrown before any request is sent.
 */
import type { z } from 'zod';
import { invalidInput, type Violation } from '../local-errors.ts';
import { READ_ONLY_USER_FIELDS } from './schemas.ts';

const readOnly = new Set<string>(READ_ONLY_USER_FIELDS);

function joinPath(root: string, path: readonly PropertyKey[]): string {
  const parts = path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  if (root === '') return parts.replace(/^\./, '');
  return `${root}${parts}`;
}

/** Why a key is refused, by what the object is: a profile (root `''`), retry options, a watermark. */
function unknownKeyMessage(root: string, key: string): string {
  if (root === 'retry') return `${key} is not a retry option (maxAttempts, baseDelayMs, maxDelayMs); remove it.`;
  if (root === 'since') return `${key} is not part of a watermark ({ updatedAt, seenIds }); pass the watermark as saved.`;
  if (readOnly.has(key)) return `${key} is read-only (the service sets it); remove it from the input.`;
  // Only registration refuses `status` (a patch may set it): a new learner is always active.
  if (key === 'status') {
    return 'status cannot be set at registration (a new learner is active); register, then call users.deactivate().';
  }
  return `${key} is not a writable profile field; remove it or check its spelling.`;
}

function violationsOf(error: z.ZodError, root: string): Violation[] {
  const violations: Violation[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        violations.push({ propertyPath: joinPath(root, [...issue.path, key]), message: unknownKeyMessage(root, key) });
      }
      continue;
    }
    violations.push({ propertyPath: joinPath(root, issue.path), message: issue.message });
  }
  return violations;
}

/**
 * Parses `value` with `schema` or throws.
 *
 * @param schema The zod schema to apply.
 * @param value The caller's input.
 * @param root The name of the input as the caller knows it (`userId`, `pageSize`); `''` for an object whose
 *   fields are the violations' paths.
 * @returns The parsed value.
 * @throws {ValidationError} origin `client`, one violation per problem, each naming the property and the fix.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidInput(violationsOf(result.error, root));
}

/**
 * Runs several checks and throws one error listing every violation, so a caller fixes all inputs at once.
 *
 * @param checks Pairs of [schema, value, root]; `undefined` values with optional meaning are skipped by the caller.
 * @throws {ValidationError} when any check fails.
 */
export function checkAll(checks: ReadonlyArray<readonly [z.ZodType, unknown, string]>): void {
  const violations: Violation[] = [];
  for (const [schema, value, root] of checks) {
    const result = schema.safeParse(value);
    if (!result.success) violations.push(...violationsOf(result.error, root));
  }
  if (violations.length > 0) throw invalidInput(violations);
}
