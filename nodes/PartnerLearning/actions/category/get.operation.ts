import { catalogGet } from '../catalog.ts';

/** Reads one category by ID. */
export const { description, execute } = catalogGet('category', { name: 'categoryId', displayName: 'Category' }, 'searchCategories', 'categories');
