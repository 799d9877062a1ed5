import type { Catalog, Course, Module } from './types.ts';

/** A change to a course or module, as the operator's monthly re-sync makes it. */
export interface CatalogChange {
  /** Publish (true) or unpublish (false). */
  published?: boolean;
  /** A new title (1 to 255 characters, no control characters). */
  title?: string;
}

/** A module as `GET /_emulator/catalog` shows it (`published` = visible: the module and its course are published). */
export interface CatalogModuleView {
  id: number;
  title: string;
  contentType: Module['contentType'];
  passingScore: number | null;
  published: boolean;
}

/** A course as `GET /_emulator/catalog` shows it. */
export interface CatalogCourseView {
  id: number;
  title: string;
  categoryId: number;
  published: boolean;
  modules: CatalogModuleView[];
}

const FIELDS = new Set(['published', 'title']);
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks a change body before anything is touched.
 * @param body the parsed JSON.
 * @returns the change, or a message naming what to fix.
 */
export function parseCatalogChange(body: unknown): CatalogChange | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body must be a JSON object such as {"published": false} or {"title": "New title"}';
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) return `unknown field(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}: only "published" and "title" can be changed`;
  if (b.published === undefined && b.title === undefined) return 'nothing to change: give "published" (boolean) and/or "title" (string)';
  if (b.published !== undefined && typeof b.published !== 'boolean') return `published must be a boolean, got ${JSON.stringify(b.published)}`;
  if (b.title !== undefined) {
    if (typeof b.title !== 'string') return `title must be a string, got ${JSON.stringify(b.title)}`;
    if (b.title.trim() === '' || b.title.length > 255) return 'title must have 1 to 255 characters and not be blank';
    if (CONTROL.test(b.title)) return 'title must not contain control characters';
  }
  const change: CatalogChange = {};
  if (typeof b.published === 'boolean') change.published = b.published;
  if (typeof b.title === 'string') change.title = b.title;
  return change;
}

/** @returns the module as the control catalog shows it. */
export function moduleView(catalog: Catalog, m: Module): CatalogModuleView {
  const course = catalog.courses.find((c) => c.id === m.courseId);
  return { id: m.id, title: m.title, contentType: m.contentType, passingScore: m.passingScore, published: m.published && course?.published === true };
}

/** @returns the course with all its modules (published or not) as the control catalog shows it. */
export function courseView(catalog: Catalog, course: Course): CatalogCourseView {
  return {
    id: course.id,
    title: course.title,
    categoryId: course.categoryId,
    published: course.published,
    modules: catalog.modules.filter((m) => m.courseId === course.id).map((m) => moduleView(catalog, m)),
  };
}

/**
 * Applies a change to a course. Its `updatedAt` moves to `now` (every accepted change does, as a re-sync writes the
 * record). When `published` flips, the course's modules appear in or vanish from `/modules` with it, so their
 * `updatedAt` moves too and a delta sync of `/modules` sees them arrive.
 * @returns the course's new view, or undefined for an unknown id.
 */
export function changeCourse(catalog: Catalog, id: number, change: CatalogChange, now: number): CatalogCourseView | undefined {
  const course = catalog.courses.find((c) => c.id === id);
  if (!course) return undefined;
  if (change.published !== undefined && change.published !== course.published) {
    for (const m of catalog.modules) if (m.courseId === id) m.updatedAt = now;
  }
  if (change.published !== undefined) course.published = change.published;
  if (change.title !== undefined) course.title = change.title;
  course.updatedAt = now;
  return courseView(catalog, course);
}

/**
 * Applies a change to a module; its `updatedAt` moves to `now`. The course's own record is not touched: a course
 * detail lists its modules, but its `updatedAt` belongs to the course row.
 * @returns the module's new view, or undefined for an unknown id.
 */
export function changeModule(catalog: Catalog, id: number, change: CatalogChange, now: number): CatalogModuleView | undefined {
  const module = catalog.modules.find((m) => m.id === id);
  if (!module) return undefined;
  if (change.published !== undefined) module.published = change.published;
  if (change.title !== undefined) module.title = change.title;
  module.updatedAt = now;
  return moduleView(catalog, module);
}
