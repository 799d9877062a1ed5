import { contextIri } from './api-docs.ts';
import { iso } from './clock.ts';
import type { Catalog, Category, Course, CourseProgress, EnvName, Module, Organization, Transcript, User } from './types.ts';

/** JSON-LD views of the records. `@id` values are origin-relative paths under `/{env}/v1`. */

const base = (env: EnvName) => `/${env}/v1`;
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** @returns the organization as a JSON-LD item. */
export function organizationJson(env: EnvName, o: Organization): object {
  return { '@id': `${base(env)}/organizations/${o.id}`, '@type': 'Organization', id: o.id, name: o.name, countryCode: o.countryCode };
}

/** @returns the category as a JSON-LD item. */
export function categoryJson(env: EnvName, c: Category): object {
  return { '@id': `${base(env)}/categories/${c.id}`, '@type': 'Category', id: c.id, name: c.name, slug: c.slug, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt) };
}

/** @returns the module as a JSON-LD item. */
export function moduleJson(env: EnvName, m: Module): object {
  return {
    '@id': `${base(env)}/modules/${m.id}`,
    '@type': 'Module',
    id: m.id,
    courseId: m.courseId,
    course: `${base(env)}/courses/${m.courseId}`,
    position: m.position,
    title: m.title,
    contentType: m.contentType,
    mimeType: m.mimeType,
    durationSeconds: m.durationSeconds,
    passingScore: m.passingScore,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

/**
 * @param modules the course's reachable modules, for the detail view; omitted in lists.
 * @returns the course as a JSON-LD item.
 */
export function courseJson(env: EnvName, c: Course, modules?: Module[]): object {
  const out: Record<string, unknown> = {
    '@id': `${base(env)}/courses/${c.id}`,
    '@type': 'Course',
    id: c.id,
    title: c.title,
    description: c.description,
    language: c.language,
    categoryId: c.categoryId,
    category: `${base(env)}/categories/${c.categoryId}`,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
  if (modules) out.modules = modules.map((m) => moduleJson(env, m));
  return out;
}

/** @returns the learner profile as a JSON-LD item. */
export function userJson(env: EnvName, u: User): object {
  return {
    '@context': contextIri(env, 'User'),
    '@id': `${base(env)}/users/${u.uuid}`,
    '@type': 'User',
    uuid: u.uuid,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    organizationId: u.organizationId,
    countryCode: u.countryCode,
    address: u.address,
    address2: u.address2,
    city: u.city,
    stateProv: u.stateProv,
    postalCode: u.postalCode,
    phone: u.phone,
    status: u.status,
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
  };
}

/** @returns the course progress as a JSON-LD item. */
export function progressJson(env: EnvName, p: CourseProgress, catalog: Catalog): object {
  return {
    '@id': `${base(env)}/course-progresses/${p.id}`,
    '@type': 'CourseProgress',
    id: p.id,
    courseId: p.courseId,
    courseTitle: catalog.courses.find((c) => c.id === p.courseId)?.title ?? null,
    status: p.status,
    completionPercent: p.completionPercent,
    startedAt: isoOrNull(p.startedAt),
    lastActivityAt: isoOrNull(p.lastActivityAt),
    completedAt: isoOrNull(p.completedAt),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

/** @returns the transcript record as a JSON-LD item. `title` names the course or module. */
export function transcriptJson(env: EnvName, t: Transcript): object {
  return {
    '@id': `${base(env)}/transcripts/${t.id}`,
    '@type': 'Transcript',
    id: t.id,
    isCourse: t.isCourse,
    courseId: t.courseId,
    moduleId: t.moduleId,
    title: t.title,
    completionDate: iso(t.completionDate),
    score: t.score,
    certificateAvailable: t.certificateAvailable,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

/** @returns the item with `@context` (this environment's context of `type`) added, as API Platform writes single items. */
export function withContext(env: EnvName, type: string, item: object): object {
  return { '@context': contextIri(env, type), ...item };
}
