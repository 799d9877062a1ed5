/** `/course-progresses`: a learner's course progress (read-only; created on first content access). */
import type { LearnerCollection } from '../types/resources.ts';
import type { CourseProgress } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { createLearnerCollection } from './learner-collection.ts';

/**
 * @param transport Sends the requests.
 * @returns `list`, `get` and `sync` of the learner's progress records (`userId` required).
 */
export function createProgress(transport: Transport): LearnerCollection<CourseProgress> {
  return createLearnerCollection<CourseProgress>(transport, '/course-progresses');
}
