/** `/categories`: read-only catalog. */
import type { ReadCollection } from '../types/resources.ts';
import type { Category } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { createReadCollection } from './read-collection.ts';

/**
 * @param transport Sends the requests.
 * @returns `list`, `get` and `sync` of categories.
 */
export function createCategories(transport: Transport): ReadCollection<Category> {
  return createReadCollection<Category>(transport, '/categories');
}
