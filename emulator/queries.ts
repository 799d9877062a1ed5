import type { Catalog, Course, Module } from './types.ts';

/** @returns published courses, id ascending. */
export function publishedCourses(catalog: Catalog): Course[] {
  return catalog.courses.filter((c) => c.published);
}

/** @returns whether the module is visible: published itself and in a published course. */
export function isReachable(catalog: Catalog, m: Module): boolean {
  return m.published && catalog.courses.some((c) => c.id === m.courseId && c.published);
}

/** @returns the reachable modules, id ascending. */
export function reachableModules(catalog: Catalog): Module[] {
  return catalog.modules.filter((m) => isReachable(catalog, m));
}

/** @returns the reachable module with that id, or undefined. */
export function findReachableModule(catalog: Catalog, id: number): Module | undefined {
  const m = catalog.modules.find((x) => x.id === id);
  return m && isReachable(catalog, m) ? m : undefined;
}

/** @returns the course's visible modules in course order (they count towards completion). */
export function courseModules(catalog: Catalog, courseId: number): Module[] {
  return catalog.modules.filter((m) => m.courseId === courseId && m.published).sort((a, b) => a.position - b.position);
}

/** @returns the id in a path segment, or null when it is not a positive integer. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

/** 36-character UUID, any version, case-insensitive. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
