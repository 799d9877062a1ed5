import { catalogGet } from '../catalog.ts';

/** Reads one course by ID. */
export const { description, execute } = catalogGet('course', { name: 'courseId', displayName: 'Course' }, 'searchCourses', 'courses');
