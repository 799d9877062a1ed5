/** `/courses`: read-only catalog; the detail (`get`) includes the course's modules. */
import type { ReadCollection } from '../types/resources.ts';
import type { Course, CourseDetail } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { createReadCollection } from './read-collection.ts';

/**
 * @param transport Sends the requests.
 * @returns `list`, `get` (with modules) and `sync` of courses.
 */
export function createCourses(transport: Transport): ReadCollection<Course, CourseDetail> {
  return createReadCollection<Course, CourseDetail>(transport, '/courses');
}
