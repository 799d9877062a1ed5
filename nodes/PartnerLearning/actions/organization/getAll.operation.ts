import { catalogGetAll } from '../catalog.ts';

/** Lists organizations: all, or up to a limit. */
export const { description, execute } = catalogGetAll('organization', 'organizations', false);
