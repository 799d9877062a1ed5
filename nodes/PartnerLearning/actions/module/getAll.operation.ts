import { catalogGetAll } from '../catalog.ts';

/** Lists modules: all, or up to a limit, optionally only those updated after an instant. */
export const { description, execute } = catalogGetAll('module', 'modules', true);
