import { updateDisplayOptions } from 'n8n-workflow';
import { catalogGet } from '../catalog.ts';
import { moduleLocators } from '../common.ts';

/** Reads one module by ID. */
export const { execute } = catalogGet('module', { name: 'moduleId', displayName: 'Module' }, 'searchModules', 'modules');

/** The module locator, after the optional course that narrows its list. */
export const description = updateDisplayOptions({ show: { resource: ['module'], operation: ['get'] } }, moduleLocators());
