import { catalogGet } from '../catalog.ts';

/** Reads one organization by ID. */
export const { description, execute } = catalogGet('organization', { name: 'organizationId', displayName: 'Organization' }, 'searchOrganizations', 'organizations');
