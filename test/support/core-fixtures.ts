/**
 * Test data for the core contract suite: modules picked from the emulator's catalog by kind, learners registered
 * through the client, and small readers for streams and captured output.
 */
import type { PartnerLearningClient } from '../../core/types/client-api.ts';
import type { User } from '../../core/types/records.ts';
import type { CatalogCourse, CatalogModule, EmulatorControl } from './core-control.ts';

/** Modules and courses of the seed, chosen by what a test needs. */
export interface CatalogPicks {
  /** A published course whose published modules are all reachable. */
  courses: CatalogCourse[];
  /** A video, document or resource module of a published course (completable with `/complete`). */
  completable: CatalogModule;
  /** A second completable module, in the same course as `completable` when there is one. */
  otherCompletable: CatalogModule;
  scorm: CatalogModule;
  /** A module reachable only through an unpublished course. */
  hidden: CatalogModule | undefined;
}

/**
 * @param control The emulator's control interface.
 * @returns Modules of each kind the tests need.
 * @throws Error when the seed lacks one (the emulator contract promises every kind).
 */
export async function pickCatalog(control: EmulatorControl): Promise<CatalogPicks> {
  const catalog = await control.catalog('sandbox');
  const courses = catalog.filter((c) => c.published);
  const reachable = courses.flatMap((c) => c.modules.filter((m) => m.published !== false));
  const reachableIds = new Set(reachable.map((m) => m.id));
  const completables = reachable.filter((m) => m.contentType !== 'scorm');
  const scorm = reachable.find((m) => m.contentType === 'scorm');
  const hidden = catalog
    .filter((c) => !c.published)
    .flatMap((c) => c.modules)
    .find((m) => !reachableIds.has(m.id));
  const completable = completables[0];
  if (!completable || !scorm) throw new Error('the seed catalog lacks a completable or a SCORM module');
  const sameCourse = courses.find((c) => c.modules.some((m) => m.id === completable.id));
  const otherCompletable =
    sameCourse?.modules.find((m) => m.id !== completable.id && m.contentType !== 'scorm' && m.published !== false) ??
    completables.find((m) => m.id !== completable.id);
  if (!otherCompletable) throw new Error('the seed catalog has only one completable module');
  return { courses, completable, otherCompletable, scorm, hidden };
}

let learnerCount = 0;

/**
 * Registers a learner with a unique e-mail.
 *
 * @param client A read-write client.
 * @param overrides Registration fields to use instead of the defaults.
 * @returns The profile the service answered.
 */
export async function registerLearner(
  client: PartnerLearningClient,
  overrides: Partial<{ email: string; firstName: string; lastName: string; organizationId: number }> = {},
): Promise<User> {
  learnerCount += 1;
  const organizationId = overrides.organizationId ?? (await firstOrganizationId(client));
  return client.users.register({
    email: `learner${learnerCount}.${Date.now()}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    organizationId,
    ...overrides,
  });
}

/**
 * @param client Any client.
 * @returns The id of the first organization the service lists.
 */
export async function firstOrganizationId(client: PartnerLearningClient): Promise<number> {
  const [organization] = await client.organizations.list({ pageSize: 1 }).toArray({ max: 1 });
  if (!organization) throw new Error('the emulator lists no organization');
  return organization.id;
}

/**
 * @param body A stream to read whole (tests only: PDFs here are small).
 * @returns All its bytes.
 */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Flattens anything a logger or an error may carry (errors with their own properties, headers, maps, nested
 * objects) into one string, so a secret hidden anywhere in it can be searched for.
 *
 * @param value What to flatten.
 * @returns Its text.
 */
export function flatten(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function') return String(v);
    if (typeof v !== 'object' || v === null) return v;
    if (seen.has(v)) return '[circular]';
    seen.add(v);
    if (v instanceof Headers) return [...v.entries()];
    if (v instanceof Map) return [...v.entries()].map(walk);
    if (v instanceof URL) return v.href;
    if (v instanceof Request || v instanceof Response) return { url: v.url, headers: [...v.headers.entries()] };
    const out: Record<string, unknown> = {};
    if (v instanceof Error) {
      out.name = v.name;
      out.message = v.message;
      out.stack = v.stack;
      out.cause = walk(v.cause);
    }
    for (const key of Object.getOwnPropertyNames(v)) out[key] = walk((v as Record<string, unknown>)[key]);
    return out;
  };
  return JSON.stringify(walk(value)) ?? '';
}

/**
 * @param text Captured output.
 * @param secrets Values that must not appear (empty strings are ignored).
 * @returns The secrets found in the text (none is the expected answer).
 */
export function leakedSecrets(text: string, secrets: string[]): string[] {
  return secrets.filter((s) => s.length > 0 && text.includes(s));
}
