/**
 * The records the Partner Learning Service returns, as zod schemas: the one model that the relay's and the
 * emulator's OpenAPI documents are generated from (`z.toJSONSchema`), and that tests check real answers against.
 * The client itself does not validate answers (the service is the authority and may add fields), so every record is
 * a loose object: the fields the specification names are typed, anything else passes. `types/records.ts` holds the
 * matching TypeScript types for callers; `records.test.ts` checks that the two agree.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE, uuidSchema } from './schemas.ts';

// Timestamps as the service writes them: the document says `date-time`; the client passes them on as given.
const at = z.string().meta({ format: 'date-time', description: 'ISO 8601 date-time (UTC from the service).', examples: ['2026-01-15T09:30:00Z'] });
const id = z.int().positive().meta({ description: 'The record id (a positive whole number).', examples: [1] });
const text = (description: string, example: string) => z.string().meta({ description, examples: [example] });
const optionalText = (description: string) => z.string().nullable().optional().meta({ description });

/** JSON-LD keys every record carries (`@context` only on single items). */
const jsonLd = {
  '@context': z.string().optional().meta({ description: 'JSON-LD context IRI.' }),
  '@id': z.string().optional().meta({ description: 'The record IRI, e.g. /sandbox/v1/courses/1.' }),
  '@type': z.string().optional().meta({ description: 'The JSON-LD type.' }),
};

export const contentTypeSchema = z.enum(['video', 'document', 'scorm', 'resource']);
export const progressStatusSchema = z.enum(['not_started', 'in_progress', 'completed']);

export const userRecordSchema = z.looseObject({
  ...jsonLd,
  uuid: uuidSchema.meta({ description: "The learner's identity: pass it as X-User-ID or in /users/{uuid}.", examples: ['3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'] }),
  email: text('E-mail address (registration is idempotent per e-mail).', 'ada@example.com'),
  firstName: text('Given name.', 'Ada'),
  lastName: text('Family name.', 'Lovelace'),
  organizationId: id.meta({ description: 'The id of the learner\'s organization.', examples: [1] }),
  countryCode: optionalText('ISO 3166-1 alpha-2 country code.'),
  address: optionalText('Street address.'),
  address2: optionalText('Address, second line.'),
  city: optionalText('City.'),
  stateProv: optionalText('State or province.'),
  postalCode: optionalText('Postal code.'),
  phone: optionalText('Phone number.'),
  status: z.enum(['active', 'inactive']).meta({ description: '"inactive" learners cannot use content.' }),
  createdAt: at,
  updatedAt: at,
}).meta({ description: 'A learner profile.' });

export const organizationRecordSchema = z.looseObject({
  ...jsonLd,
  id,
  name: text('Organization name.', 'Acme Learning').optional(),
  countryCode: z.string().nullable().optional(),
}).meta({ description: 'An organization learners belong to.' });

export const categoryRecordSchema = z.looseObject({
  ...jsonLd,
  id,
  name: text('Category name.', 'Compliance').optional(),
  slug: z.string().optional(),
  createdAt: at.optional(),
  updatedAt: at.optional(),
}).meta({ description: 'A catalog category.' });

export const moduleRecordSchema = z.looseObject({
  ...jsonLd,
  id,
  courseId: id.optional(),
  course: z.string().optional().meta({ description: "The course's IRI." }),
  position: z.int().optional(),
  title: text('Module title.', 'Welcome').optional(),
  contentType: contentTypeSchema.optional(),
  mimeType: z.string().optional(),
  durationSeconds: z.int().nonnegative().optional(),
  passingScore: z.number().min(0).max(100).nullable().meta({ description: '0 to 100, or null for content that is not assessed.' }),
  createdAt: at.optional(),
  updatedAt: at.optional(),
}).meta({ description: 'A module of a course (one piece of content).' });

export const courseRecordSchema = z.looseObject({
  ...jsonLd,
  id,
  title: text('Course title.', 'Onboarding').optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  categoryId: id.optional(),
  category: z.string().optional().meta({ description: "The category's IRI." }),
  createdAt: at.optional(),
  updatedAt: at.optional(),
}).meta({ description: 'A catalog course.' });

/** `GET /courses/{id}`: the course with its reachable modules. */
export const courseDetailRecordSchema = courseRecordSchema.extend({ modules: z.array(moduleRecordSchema) })
  .meta({ description: 'A course with its modules.' });

export const moduleContentRecordSchema = z.looseObject({
  ...jsonLd,
  '@type': z.literal('ModuleContent').meta({ description: 'The constant marker of this record kind.' }),
  module_id: id,
  content_type: contentTypeSchema,
  content_url: z.url().meta({ description: 'Signed and short-lived: hand it to the learner now, never store it.' }),
  expires_at: at.meta({ description: 'When content_url stops working (about 60 minutes after issue).' }),
  duration_seconds: z.int().nonnegative(),
  mime_type: z.string(),
}).meta({ description: "A learner's signed content link (snake_case, as the service sends it)." });

export const progressRecordSchema = z.looseObject({
  ...jsonLd,
  id: z.union([id, z.string()]).optional(),
  courseId: id.optional(),
  courseTitle: z.string().nullable().optional(),
  status: progressStatusSchema,
  completionPercent: z.number().min(0).max(100),
  startedAt: at.nullable(),
  lastActivityAt: at.nullable(),
  completedAt: at.nullable(),
  createdAt: at,
  updatedAt: at,
}).meta({ description: "A learner's progress in one course." });

export const transcriptRecordSchema = z.looseObject({
  ...jsonLd,
  id: z.union([id, z.string()]).optional(),
  isCourse: z.boolean().meta({ description: 'true for a course completion, false for a module completion.' }),
  courseId: id.nullable().optional(),
  moduleId: id.nullable().optional(),
  title: z.string().nullable().optional(),
  completionDate: at,
  score: z.number().min(0).max(100).nullable(),
  certificateAvailable: z.boolean(),
  createdAt: at.optional(),
  updatedAt: at.optional(),
}).meta({ description: 'A completion record of a learner.' });

export const healthRecordSchema = z.looseObject({ status: z.string().meta({ examples: ['healthy'] }) })
  .meta({ description: 'The service is up when status is "healthy".' });

/**
 * A Hydra collection page of `member` records (API Platform's envelope).
 * @param member The member record's schema.
 * @returns The page's schema.
 */
export function hydraCollectionSchema(member: z.ZodType) {
  return z.looseObject({
    '@context': z.string().optional(),
    '@id': z.string().optional(),
    '@type': z.string().optional(),
    'hydra:member': z.array(member),
    'hydra:totalItems': z.int().nonnegative().optional(),
    'hydra:view': z.looseObject({
      '@id': z.string().optional(),
      '@type': z.string().optional(),
      'hydra:first': z.string().optional(),
      'hydra:last': z.string().optional(),
      'hydra:next': z.string().optional().meta({ description: 'The next page (absent on the last one).' }),
    }).optional(),
  });
}

/**
 * The records by the names both OpenAPI documents (the relay's and the emulator's) give them in
 * `components.schemas`, and a `<Name>Collection` page for each record the service lists.
 */
export const recordComponents: Record<string, z.ZodType> = {
  Health: healthRecordSchema,
  User: userRecordSchema,
  Organization: organizationRecordSchema,
  Category: categoryRecordSchema,
  Course: courseRecordSchema,
  CourseDetail: courseDetailRecordSchema,
  Module: moduleRecordSchema,
  ModuleContent: moduleContentRecordSchema,
  CourseProgress: progressRecordSchema,
  Transcript: transcriptRecordSchema,
  ...Object.fromEntries(([
    ['Organization', organizationRecordSchema], ['Category', categoryRecordSchema], ['Course', courseRecordSchema],
    ['Module', moduleRecordSchema], ['CourseProgress', progressRecordSchema], ['Transcript', transcriptRecordSchema],
  ] as const).map(([name, member]) => [`${name}Collection`, hydraCollectionSchema(member).meta({ description: `A page of ${name} records (Hydra collection).` })])),
};

/** The query every collection takes. */
export const collectionQuery = {
  page: z.int().min(1).meta({ description: 'The page, 1-based.', examples: [1] }),
  itemsPerPage: z.int().min(1).max(MAX_PAGE_SIZE).meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}.`, examples: [30] }),
  dateFilter: z.iso.datetime({ offset: true }),
};
