import { catalogGetAll } from '../catalog.ts';

/** Lists courses: all, or up to a limit, optionally only those updated after an instant. */
export const { description, execute } = catalogGetAll('course', 'courses', true);
