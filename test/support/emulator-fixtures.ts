/**
 * Test fixtures for the emulator contract suite: learners, catalog picks (through the control interface, since
 * sandbox identifiers are discovered at runtime), collection walking and PDF text search.
 */
import { z } from 'zod/v4';
import { call, control } from './emulator-http.ts';
import type { EnvName, HttpResult, Session } from './emulator-http.ts';
import { CatalogCourse, Collection, Organization, Profile } from './emulator-schemas.ts';

let counter = 0;

/**
 * A fresh e-mail address, unique within the test process.
 * @param tag - readable part
 * @returns an address on example.com
 */
export function uniqueEmail(tag = 'learner'): string {
  counter += 1;
  return `${tag}.${process.pid}.${Date.now()}.${counter}@example.com`;
}

/**
 * The first organization id visible to the session (registration needs a real one).
 * @param s - session
 * @returns an organization id
 */
export async function firstOrganizationId(s: Session): Promise<number> {
  const res = await call(s, 'GET', '/organizations');
  const first = Collection(Organization).parse(res.body)['hydra:member'][0];
  if (!first) throw new Error('no organizations in seed');
  return first.id;
}

/**
 * Registers a learner and returns the 201 profile.
 * @param s - session with write scope
 * @param fields - overrides of the registration body
 * @returns the parsed profile
 * @throws Error when registration does not answer 201
 */
export async function registerLearner(s: Session, fields: Record<string, unknown> = {}): Promise<Profile> {
  const organizationId = fields.organizationId ?? (await firstOrganizationId(s));
  const body = { email: uniqueEmail(), firstName: 'Zephyrine', lastName: 'Quillfeather', organizationId, ...fields };
  const res = await call(s, 'POST', '/users/register', { json: body });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.text}`);
  return Profile.parse(res.body);
}

/**
 * Reads the full catalog of an environment from the control interface (array or `{courses}` accepted).
 * @param origin - emulator origin
 * @param env - environment
 * @returns every course, published or not, with its modules
 */
export async function readCatalog(origin: string, env: EnvName = 'sandbox'): Promise<CatalogCourse[]> {
  const res = await control(origin, 'GET', `/_emulator/catalog?env=${env}`);
  const raw = Array.isArray(res.body) ? res.body : z.looseObject({ courses: z.array(z.unknown()) }).parse(res.body).courses;
  return z.array(CatalogCourse).parse(raw);
}

/**
 * Ids of modules reachable through at least one published course.
 * @param catalog - the catalog
 * @returns the set of visible module ids
 */
export function visibleModuleIds(catalog: CatalogCourse[]): Set<number> {
  const ids = new Set<number>();
  for (const c of catalog) if (c.published) for (const m of c.modules) if (m.published) ids.add(m.id);
  return ids;
}

/**
 * A visible module of the given content type.
 * @param catalog - the catalog
 * @param type - content type
 * @returns the module id
 * @throws Error when the seed has none
 */
export function moduleOfType(catalog: CatalogCourse[], type: 'video' | 'document' | 'scorm' | 'resource'): number {
  for (const c of catalog) {
    if (!c.published) continue;
    const m = c.modules.find((x) => x.published && x.contentType === type);
    if (m) return m.id;
  }
  throw new Error(`no visible ${type} module in the seed`);
}

/**
 * A module reachable only through unpublished courses.
 * @param catalog - the catalog
 * @returns the module id
 * @throws Error when the seed has none (the contract requires one)
 */
export function hiddenModuleId(catalog: CatalogCourse[]): number {
  const visible = visibleModuleIds(catalog);
  for (const c of catalog) for (const m of c.modules) if (!visible.has(m.id)) return m.id;
  throw new Error('seed has no module reachable only through an unpublished course');
}

/**
 * The published course with the fewest visible modules (cheapest to complete whole).
 * @param catalog - the catalog
 * @returns the course
 */
export function smallestPublishedCourse(catalog: CatalogCourse[]): CatalogCourse {
  const courses = catalog
    .filter((c) => c.published && c.modules.some((m) => m.published))
    .sort((a, b) => a.modules.length - b.modules.length);
  const first = courses[0];
  if (!first) throw new Error('no published course with modules');
  return first;
}

/**
 * Walks a collection by following `hydra:next` links from the first page.
 * @param s - session
 * @param path - collection path with optional query
 * @param userId - X-User-ID for user-scoped collections
 * @returns every member, in order, and the number of pages read
 */
export async function collectAll(s: Session, path: string, userId?: string): Promise<{ members: unknown[]; pages: number; total: number }> {
  const members: unknown[] = [];
  let next: string | undefined = path;
  let pages = 0;
  let total = 0;
  while (next !== undefined && pages < 200) {
    const res: HttpResult = await call(s, 'GET', next, userId === undefined ? {} : { userId });
    if (res.status !== 200) throw new Error(`GET ${next} answered ${res.status}`);
    const page = Collection(z.unknown()).parse(res.body);
    members.push(...page['hydra:member']);
    total = page['hydra:totalItems'];
    next = page['hydra:view']?.['hydra:next'];
    pages += 1;
  }
  return { members, pages, total };
}
