/**
 * Response shapes of the Partner Learning Service and of the emulator control interface, written from
 * `partner-learning-service.md` and `emulator-contract.md` (not from the emulator's code). Parsing a body with one
 * of these schemas is itself an assertion: a missing or mistyped field fails the test with zod's path.
 *
 * Objects are loose (extra fields allowed) because the spec lists fields as "include" or "not shown beyond".
 */
import { z } from 'zod/v4';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A timestamp string that `Date.parse` understands. */
export const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a parseable timestamp');

/** Catalog ids: the spec shows only `id`; modules and organizations are integers (module_id, organizationId). */
export const CatalogId = z.union([z.number().int(), z.string().min(1)]);

/** JSON-LD item markers the contract puts on every item. */
const JsonLd = { '@id': z.string().min(1), '@type': z.string().min(1) };

/** User profile (spec: Resources > User). */
export const Profile = z.looseObject({
  ...JsonLd,
  uuid: z.string().length(36).regex(uuidPattern),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  organizationId: z.number().int(),
  status: z.enum(['active', 'inactive']),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/** Parsed user profile. */
export type Profile = z.infer<typeof Profile>;

/** Organization: only `id` is shown, an integer because registration sends it as `organizationId`. */
export const Organization = z.looseObject({ ...JsonLd, id: z.number().int() });

/** Category and course list items: `id` plus `updatedAt` (used for delta filters). */
export const CatalogItem = z.looseObject({ ...JsonLd, id: CatalogId, updatedAt: Timestamp });

/** Module: integer id, passingScore 0..100 or null. */
export const Module = z.looseObject({
  ...JsonLd,
  id: z.number().int(),
  passingScore: z.number().int().min(0).max(100).nullable(),
  updatedAt: Timestamp,
});

/** Course detail includes its modules (embedded, each with passingScore). */
export const CourseDetail = z.looseObject({ ...JsonLd, id: CatalogId, modules: z.array(Module) });

/** ModuleContent: snake_case, the one exception to camelCase (spec rule 8). */
export const ModuleContent = z.looseObject({
  '@type': z.literal('ModuleContent'),
  module_id: z.number().int(),
  content_type: z.enum(['video', 'document', 'scorm', 'resource']),
  content_url: z.url(),
  expires_at: Timestamp,
  duration_seconds: z.number().int(),
  mime_type: z.string().min(1),
});

/** Course progress record ("fields include"). */
export const Progress = z.looseObject({
  ...JsonLd,
  status: z.enum(['not_started', 'in_progress', 'completed']),
  completionPercent: z.number(),
  lastActivityAt: Timestamp.nullable(),
  startedAt: Timestamp.nullable(),
  completedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Transcript record. */
export const Transcript = z.looseObject({
  ...JsonLd,
  completionDate: Timestamp.nullable(),
  score: z.number().int().min(0).max(100).nullable(),
  isCourse: z.boolean(),
  certificateAvailable: z.boolean(),
  updatedAt: Timestamp,
});

/**
 * Hydra collection envelope per the contract.
 * @param item - schema of one member
 * @returns the envelope schema
 */
export function Collection<T extends z.ZodType>(item: T) {
  return z.looseObject({
    '@context': z.string(),
    '@id': z.string(),
    '@type': z.literal('hydra:Collection'),
    'hydra:member': z.array(item),
    'hydra:totalItems': z.number().int().min(0),
    'hydra:view': z
      .looseObject({
        '@id': z.string(),
        '@type': z.literal('hydra:PartialCollectionView'),
        'hydra:first': z.string().optional(),
        'hydra:last': z.string().optional(),
        'hydra:next': z.string().optional(),
      })
      .optional(),
  });
}

/** API application error about request semantics. */
export const HydraError = z.looseObject({ '@type': z.literal('hydra:Error'), 'hydra:description': z.string() });

/** API application field-level validation error. */
export const ValidationError = z.looseObject({
  error: z.literal('validation_failed'),
  violations: z.array(z.looseObject({ propertyPath: z.string(), message: z.string().min(1) })).min(1),
});

/** Gateway terse body (401, 429). */
export const GatewayMessage = z.looseObject({ message: z.string().min(1) });

/** Token endpoint error body. */
export const OAuthError = z.looseObject({ error: z.string().min(1) });

/** Token endpoint success body. */
export const TokenResponse = z.looseObject({ access_token: z.string().min(1), expires_in: z.literal(3600) });

/** Health answer of GET /ping. */
export const Health = z.looseObject({ status: z.literal('healthy') });

/** One client of a partner environment (control interface). */
export const ClientCreds = z.looseObject({
  clientId: z.string(),
  clientSecret: z.string(),
  scopes: z.array(z.string()),
});
/** Parsed client credentials. */
export type ClientCreds = z.infer<typeof ClientCreds>;

/** One environment of a partner (control interface). */
export const EnvCreds = z.looseObject({
  tokenUrl: z.string(),
  baseUrl: z.string(),
  apiKey: z.string(),
  clients: z.array(ClientCreds).min(2),
});
/** Parsed environment credentials. */
export type EnvCreds = z.infer<typeof EnvCreds>;

/** GET /_emulator/partners answer. */
export const Partners = z
  .array(
    z.looseObject({
      id: z.union([z.string(), z.number()]),
      name: z.string(),
      environments: z.looseObject({ sandbox: EnvCreds, production: EnvCreds }),
    }),
  )
  .min(2);
/** Parsed partner list. */
export type Partners = z.infer<typeof Partners>;

/** One course of GET /_emulator/catalog. */
export const CatalogCourse = z.looseObject({
  id: CatalogId,
  published: z.boolean(),
  modules: z.array(
    z.looseObject({
      id: z.number().int(),
      contentType: z.enum(['video', 'document', 'scorm', 'resource']),
      passingScore: z.number().int().min(0).max(100).nullable(),
      published: z.boolean(),
    }),
  ),
});
/** Parsed catalog course. */
export type CatalogCourse = z.infer<typeof CatalogCourse>;

/** One entry of GET /_emulator/requests. */
export const RequestLogEntry = z.looseObject({
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  env: z.string().nullable(),
  at: Timestamp,
});

/** POST /_emulator/clock answer. */
export const ClockAnswer = z.looseObject({ now: Timestamp });
