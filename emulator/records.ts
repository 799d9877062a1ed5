import { courseModules, reachableModules } from './queries.ts';
import { pushFor } from './state.ts';
import type { EnvData } from './state.ts';
import type { CourseProgress, Module, Transcript, User } from './types.ts';

const moduleKey = (uuid: string, moduleId: number) => `${uuid}|m${moduleId}`;
const courseKey = (uuid: string, courseId: number) => `${uuid}|c${courseId}`;

/**
 * @returns the learner's progress record for the course, or undefined.
 */
export function findProgress(data: EnvData, uuid: string, courseId: number): CourseProgress | undefined {
  return data.progressesByLearner.get(uuid)?.find((p) => p.courseId === courseId);
}

/**
 * Creates the learner's progress for a course on first activity (status `in_progress`, startedAt now),
 * and records the activity otherwise.
 * @returns the progress record.
 */
export function touchProgress(data: EnvData, uuid: string, courseId: number, now: number): CourseProgress {
  const known = findProgress(data, uuid, courseId);
  if (known) {
    known.lastActivityAt = now;
    known.updatedAt = now;
    return known;
  }
  const progress: CourseProgress = {
    id: data.nextProgressId++,
    learnerUuid: uuid,
    courseId,
    status: 'in_progress',
    completionPercent: 0,
    startedAt: now,
    lastActivityAt: now,
    completedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  data.progresses.set(progress.id, progress);
  pushFor(data.progressesByLearner, uuid, progress);
  return progress;
}

function addTranscript(data: EnvData, fields: Omit<Transcript, 'id' | 'createdAt' | 'updatedAt'>, now: number): Transcript {
  const transcript: Transcript = { id: data.nextTranscriptId++, ...fields, createdAt: now, updatedAt: now };
  data.transcripts.set(transcript.id, transcript);
  pushFor(data.transcriptsByLearner, fields.learnerUuid, transcript);
  return transcript;
}

/**
 * Records a module completion: a module transcript, the course progress (percent = completed visible modules /
 * visible modules), and once every module is complete a course transcript with a certificate; the progress then
 * becomes `completed` (course completion is derived from the transcript). Repeating is a no-op.
 * @param score 0..100 or null (SCORM statements carry one; `/complete` does not).
 * @returns whether the completion was new, and the module transcript.
 */
export function completeModule(data: EnvData, uuid: string, module: Module, score: number | null, now: number): { created: boolean; transcript: Transcript } {
  const existing = data.completions.get(moduleKey(uuid, module.id));
  if (existing) return { created: false, transcript: existing };
  const transcript = addTranscript(
    data,
    { learnerUuid: uuid, isCourse: false, courseId: module.courseId, moduleId: module.id, title: module.title, completionDate: now, score, certificateAvailable: false },
    now,
  );
  data.completions.set(moduleKey(uuid, module.id), transcript);
  const progress = touchProgress(data, uuid, module.courseId, now);
  const modules = courseModules(data.catalog, module.courseId);
  const done = modules.map((m) => data.completions.get(moduleKey(uuid, m.id))).filter((t): t is Transcript => t !== undefined);
  progress.completionPercent = modules.length === 0 ? 100 : Math.floor((done.length * 100) / modules.length);
  if (done.length === modules.length && !data.completions.has(courseKey(uuid, module.courseId))) {
    const scores = done.map((t) => t.score).filter((s): s is number => s !== null);
    const course = data.catalog.courses.find((c) => c.id === module.courseId);
    const courseTranscript = addTranscript(
      data,
      {
        learnerUuid: uuid,
        isCourse: true,
        courseId: module.courseId,
        moduleId: null,
        title: course?.title ?? `Course ${module.courseId}`,
        completionDate: now,
        score: scores.length > 0 ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null,
        certificateAvailable: true,
      },
      now,
    );
    data.completions.set(courseKey(uuid, module.courseId), courseTranscript);
    progress.status = 'completed';
    progress.completedAt = now;
  }
  return { created: true, transcript };
}

/**
 * Erases a learner: the profile goes; progress and transcripts stay, anonymized and relinked to a placeholder
 * learner id that nobody can address. The e-mail becomes free, so registering it again creates a new learner.
 * @param placeholder a fresh uuid for the anonymized records.
 */
export function eraseLearner(data: EnvData, user: User, placeholder: string, _now: number): void {
  data.users.delete(user.uuid);
  for (const [k, v] of data.emailIndex) if (v === user.uuid) data.emailIndex.delete(k);
  for (const index of [data.progressesByLearner, data.transcriptsByLearner] as Map<string, { learnerUuid: string }[]>[]) {
    const list = index.get(user.uuid);
    if (!list) continue;
    for (const record of list) record.learnerUuid = placeholder;
    index.delete(user.uuid);
    index.set(placeholder, list);
  }
  const prefix = `${user.uuid}|`;
  for (const [k, v] of [...data.completions]) {
    if (!k.startsWith(prefix)) continue;
    data.completions.delete(k);
    data.completions.set(placeholder + k.slice(user.uuid.length), v);
  }
}

/**
 * Benchmark helper: appends `count` synthetic module transcripts for a learner, one second apart, ending now.
 * They are history only: they do not count as completions.
 * @returns the number created.
 */
export function addBulkTranscripts(data: EnvData, uuid: string, count: number, now: number): number {
  const modules = reachableModules(data.catalog);
  for (let i = 0; i < count; i++) {
    const m = modules[i % modules.length] as Module;
    const at = now - (count - i) * 1000;
    addTranscript(
      data,
      { learnerUuid: uuid, isCourse: false, courseId: m.courseId, moduleId: m.id, title: `${m.title} (synthetic #${i + 1})`, completionDate: at, score: m.passingScore === null ? null : 50 + (i % 51), certificateAvailable: false },
      at,
    );
  }
  return count;
}
