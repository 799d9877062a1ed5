import { ALNUM, LOWER_ALNUM, createPrng, deriveSeed } from './prng.ts';
import { ENV_NAMES, SCOPE_READ, SCOPE_WRITE } from './types.ts';
import type { Catalog, Category, ContentType, Course, EnvName, Module, PartnerRecord, UsagePlan } from './types.ts';

/** The default plan: generous enough that tests never hit it unless they configure a smaller one. */
export const DEFAULT_PLAN: UsagePlan = { ratePerSecond: 1000, burst: 2000, dailyQuota: 1_000_000 };

const PARTNER_NAMES = ['Acme Onboarding', 'Globex Workforce'];

/**
 * Seeds the partners and their credentials. Deterministic for a given seed.
 * @param seed the emulator seed.
 * @returns at least two partners, each with an API key, a read-write client (first) and a read-only client per env.
 */
export function seedPartners(seed: number): PartnerRecord[] {
  const prng = createPrng(deriveSeed(seed, 'partners'));
  return PARTNER_NAMES.map((name, i) => {
    const id = `partner-${i + 1}`;
    const envFor = () => ({
      apiKey: prng.string(40, ALNUM),
      clients: [
        { clientId: prng.string(26, LOWER_ALNUM), clientSecret: prng.string(52, LOWER_ALNUM), scopes: [SCOPE_READ, SCOPE_WRITE], partnerId: id },
        { clientId: prng.string(26, LOWER_ALNUM), clientSecret: prng.string(52, LOWER_ALNUM), scopes: [SCOPE_READ], partnerId: id },
      ],
    });
    const envs = Object.fromEntries(ENV_NAMES.map((env) => [env, envFor()])) as PartnerRecord['envs'];
    return { id, name, envs };
  });
}

const ORGANIZATIONS: [string, string][] = [
  ['Northwind Health', 'US'],
  ['Contoso Manufacturing', 'DE'],
  ['Fabrikam Logistics', 'GB'],
  ['Tailspin Education', 'FR'],
  ['Woodgrove Finance', 'CA'],
];
const CATEGORIES = ['Compliance', 'Health & Safety', 'Leadership', 'Customer Experience', 'Technology'];

type ModuleSeed = [title: string, type: ContentType, passingScore: number | null, published?: boolean];
const COURSES: [title: string, categoryId: number, published: boolean, modules: ModuleSeed[]][] = [
  ['Workplace Safety Essentials', 2, true, [['Safety at work (video)', 'video', null], ['Safety handbook', 'document', null], ['Safety checklist', 'resource', null]]],
  ['Data Protection Fundamentals', 1, true, [['Why privacy matters', 'video', null], ['Data protection quiz', 'scorm', 80], ['Privacy policy', 'document', null]]],
  ['Leading Effective Teams', 3, true, [['Team leadership simulation', 'scorm', 70], ['Feedback conversations', 'video', null], ['Leadership toolkit', 'resource', null]]],
  ['Forklift Operator Certification', 2, false, [['Forklift basics', 'video', null], ['Forklift exam', 'scorm', 90]]],
  ['Customer Conversations', 4, true, [['Listening skills', 'video', null], ['Service playbook', 'document', 50], ['Difficult customers', 'scorm', 60], ['Retired interview clip', 'video', null, false]]],
  ['Cloud Security Basics', 5, false, [['Shared responsibility', 'document', null]]],
  ['Anti-Bribery Refresher', 1, true, [['Gifts and hospitality', 'document', 0]]],
  ['Time Management', 3, true, [['Planning your week', 'video', null]]],
];

const MIME: Record<ContentType, string> = {
  video: 'video/mp4',
  document: 'application/pdf',
  scorm: 'text/html',
  resource: 'application/zip',
};

const DAY = 86_400_000;

/**
 * Seeds one environment's catalog. Both environments get the same structure and ids (separate copies).
 * @param seed the emulator seed.
 * @param env the environment (durations and timestamps vary by env).
 * @param start the emulator clock at seeding, epoch ms; catalog timestamps lie in the 90 days before it.
 * @returns organizations, categories, courses (some unpublished) and modules of every content type.
 */
export function seedCatalog(seed: number, env: EnvName, start: number): Catalog {
  const prng = createPrng(deriveSeed(seed, `catalog:${env}`));
  const stamp = (daysAgo: number) => start - daysAgo * DAY - prng.int(0, 3_599_999);
  const organizations = ORGANIZATIONS.map(([name, countryCode], i) => ({ id: i + 1, name, countryCode }));
  const categories: Category[] = CATEGORIES.map((name, i) => {
    const createdAt = stamp(90 - i);
    return { id: i + 1, name, slug: name.toLowerCase().replace(/[^a-z]+/g, '-'), createdAt, updatedAt: createdAt + prng.int(1, 30) * DAY };
  });
  const courses: Course[] = [];
  const modules: Module[] = [];
  COURSES.forEach(([title, categoryId, published, moduleSeeds], i) => {
    const createdAt = stamp(80 - i * 3);
    const courseId = i + 1;
    courses.push({
      id: courseId,
      categoryId,
      title,
      description: `${title}: a course for partner learners.`,
      language: 'en',
      published,
      createdAt,
      updatedAt: createdAt + prng.int(1, 40) * DAY + prng.int(0, 999),
    });
    moduleSeeds.forEach(([moduleTitle, contentType, passingScore, modulePublished = true], position) => {
      const moduleCreated = createdAt + (position + 1) * 60_000;
      modules.push({
        id: modules.length + 1,
        courseId,
        position: position + 1,
        title: moduleTitle,
        contentType,
        mimeType: MIME[contentType],
        durationSeconds: contentType === 'video' ? prng.int(120, 1800) : prng.int(300, 1200),
        passingScore,
        published: modulePublished,
        createdAt: moduleCreated,
        updatedAt: moduleCreated + prng.int(1, 40) * DAY + prng.int(0, 999),
      });
    });
  });
  return { organizations, categories, courses, modules };
}
