/**
 * The query of a collection route: only `page`, `itemsPerPage` and the four `updatedAt[...]` filters pass (others
 * are dropped), mapped to the core's list options, which check them before anything is sent.
 */
import type { ListOptions } from '../core/index.ts';
import { listQuerySchemas } from './inputs.ts';
import { problem } from './problem.ts';

const DATE_FILTERS = {
  'updatedAt[after]': 'updatedAfter',
  'updatedAt[strictly_after]': 'updatedStrictlyAfter',
  'updatedAt[before]': 'updatedBefore',
  'updatedAt[strictly_before]': 'updatedStrictlyBefore',
} as const;

/**
 * @param query The request's query.
 * @returns The core's list options, or a 400 naming the bad parameter.
 */
export function listOptions(query: URLSearchParams): ListOptions | Response {
  const options: ListOptions = {};
  for (const [name, key] of [['page', 'page'], ['itemsPerPage', 'pageSize']] as const) {
    const value = query.get(name);
    if (value === null) continue;
    const checked = listQuerySchemas[name]!.safeParse(value);
    if (!checked.success) {
      return problem(400, 'validation_failed', {
        detail: 'The request is invalid: see violations.',
        violations: [{ propertyPath: name, message: checked.error.issues[0]?.message ?? 'Invalid.' }],
      });
    }
    options[key] = Number(value);
  }
  for (const [name, key] of Object.entries(DATE_FILTERS) as [keyof typeof DATE_FILTERS, (typeof DATE_FILTERS)[keyof typeof DATE_FILTERS]][]) {
    const value = query.get(name);
    // A raw `+` in the offset (`...T10:00:00+01:00`) reads as a space in a query; the service takes it as `+`.
    if (value !== null) options[key] = value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1');
  }
  return options;
}
