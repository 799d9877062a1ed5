import { catalogGetAll } from '../catalog.ts';

/** Lists categories: all, or up to a limit, optionally only those updated after an instant. */
export const { description, execute } = catalogGetAll('category', 'categories', true);
