import { catalogGet } from '../catalog.ts';

/** Reads one module by ID. */
export const { description, execute } = catalogGet('module', { name: 'moduleId', displayName: 'Module' }, 'searchModules', 'modules');
