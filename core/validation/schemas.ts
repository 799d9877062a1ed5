/**
 * Input schemas (zod 4), checked before any request is sent. They are exported so callers (n8n nodes, the edge
 * relay, user code) can validate the same way ahead of time. Messages say what to fix, not only what is wrong.
 */
import { z } from 'zod';

/** The canonical 8-4-4-4-12 hex form, any version or variant (the service only says "36 characters"). */
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The largest page we ask for. The service caps page sizes at a maximum it does not document; 100 is API
 * Platform's usual cap and what the emulator enforces, so larger values are refused here rather than silently cut.
 */
export const MAX_PAGE_SIZE = 100;

/** Profile fields the service sets itself; a patch or registration naming them is refused with a clear message. */
export const READ_ONLY_USER_FIELDS = ['uuid', 'createdAt', 'updatedAt', '@id', '@type', '@context'] as const;

/** A learner UUID (`X-User-ID` and `/users/{uuid}`): 36 characters, 8-4-4-4-12 hexadecimal digits. */
export const uuidSchema = z
  .string({ error: 'Give the learner UUID as a string (36 characters, the `uuid` returned by registration).' })
  .regex(UUID_PATTERN, {
    error: 'Must be a 36-character UUID such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301 (the `uuid` from registration).',
  });

/** A catalog or record id: a positive integer. */
export const idSchema = z.int({ error: 'Must be a positive whole number (the record `id`).' }).positive({
  error: 'Must be a positive whole number (the record `id`).',
});

/**
 * An id of a learner-scoped record (progress, transcript): a positive integer, or a string id made of letters,
 * digits, `-` and `_` only (no `/` or `.`, so it can never change the path it is put into).
 */
export const recordIdSchema = z.union([
  idSchema,
  z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, {
    error: 'Must be a positive whole number or an id of letters, digits, "-" and "_" (the record `id`).',
  }),
], { error: 'Must be a positive whole number or an id string (the record `id`).' });

/** Items per page: 1 to {@link MAX_PAGE_SIZE}. */
export const pageSizeSchema = z
  .int({ error: `Must be a whole number from 1 to ${MAX_PAGE_SIZE}.` })
  .min(1, { error: `Must be at least 1.` })
  .max(MAX_PAGE_SIZE, { error: `Must be at most ${MAX_PAGE_SIZE} (the largest page this client asks for).` });

/** An ISO 8601 date-time with a time zone (`Z` or `±hh:mm`), e.g. `2025-01-31T00:00:00Z`. */
export const isoDateTimeSchema = z.iso.datetime({
  offset: true,
  error: 'Must be an ISO 8601 date-time with a time zone, e.g. 2025-01-31T00:00:00Z or 2025-01-31T02:00:00+02:00.',
});

/** ISO 3166-1 alpha-2 shape: two uppercase letters. */
export const countryCodeSchema = z.string().regex(/^[A-Z]{2}$/, {
  error: 'Must be an ISO 3166-1 alpha-2 country code: two uppercase letters such as DE or US.',
});

export const emailSchema = z.email({ error: 'Must be a valid e-mail address such as ada@example.com.' });

const nameSchema = (field: string) =>
  // A pattern rather than a refinement, so that the OpenAPI documents generated from this schema say it too.
  z.string({ error: `Give ${field} as text.` }).regex(/\S/, { error: `${field} must not be empty.` });

export const userStatusSchema = z.enum(['active', 'inactive'], { error: 'Must be "active" or "inactive".' });

const optionalText = z.string({ error: 'Must be text.' });
const clearableText = optionalText.nullable();

/** What `users.register` accepts: the four required fields plus optional writable profile fields. */
export const registerUserSchema = z.strictObject(
  {
    email: emailSchema,
    firstName: nameSchema('firstName'),
    lastName: nameSchema('lastName'),
    organizationId: z.int({ error: 'Must be the `id` of an organization (a positive whole number).' }).positive({
      error: 'Must be the `id` of an organization (a positive whole number).',
    }),
    countryCode: countryCodeSchema.optional(),
    address: optionalText.optional(),
    address2: optionalText.optional(),
    city: optionalText.optional(),
    stateProv: optionalText.optional(),
    postalCode: optionalText.optional(),
    phone: optionalText.optional(),
  },
  { error: 'Give the registration as an object with email, firstName, lastName and organizationId.' },
);

/** What `users.update` accepts: a JSON merge patch of writable profile fields, at least one; `null` clears. */
export const userPatchSchema = z
  .strictObject(
    {
      email: emailSchema.optional(),
      firstName: nameSchema('firstName').optional(),
      lastName: nameSchema('lastName').optional(),
      organizationId: z
        .int({ error: 'Must be the `id` of an organization (a positive whole number).' })
        .positive({ error: 'Must be the `id` of an organization (a positive whole number).' })
        .optional(),
      countryCode: countryCodeSchema.nullable().optional(),
      address: clearableText.optional(),
      address2: clearableText.optional(),
      city: clearableText.optional(),
      stateProv: clearableText.optional(),
      postalCode: clearableText.optional(),
      phone: clearableText.optional(),
      status: userStatusSchema.optional(),
    },
    { error: 'Give the patch as an object of the profile fields to change.' },
  )
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'The patch changes nothing: give at least one profile field to change.',
    // Only when the fields themselves were fine: `{ uuid }` should read "uuid is read-only", not also "empty".
    when: (payload) => payload.issues.length === 0,
  })
  // What the refinement says, as JSON Schema can say it (for the OpenAPI documents generated from this schema).
  .meta({ minProperties: 1 });

/** A delta-sync watermark as persisted by an earlier run. */
export const watermarkSchema = z.strictObject(
  {
    // A date and a time, as the service writes `updatedAt` (`'1'` or `'2025'` would pass Date.parse).
    updatedAt: z.iso.datetime({
      offset: true,
      local: true,
      error: 'Must be the `updatedAt` of an earlier sync: an ISO 8601 date-time such as 2025-01-31T10:00:00Z.',
    }),
    seenIds: z.array(z.string({ error: 'Each seen id must be a string.' }), {
      error: 'Must be the list of ids an earlier sync saw at the watermark instant (strings).',
    }),
  },
  { error: 'Give the watermark of an earlier sync: { updatedAt, seenIds }.' },
);

/** A collection cap: a positive whole number, or `Infinity` for everything (n8n's "Return All"). */
export const maxItemsSchema = z.custom<number>(
  // z.number() refuses Infinity, which is exactly the value "collect everything" needs.
  (value) => value === Infinity || (Number.isSafeInteger(value) && (value as number) > 0),
  { error: 'Give `max` as a positive whole number, or Infinity to collect everything.' },
);

/** An options argument: an object, or left out (`null`, a number or a string is a mistake worth naming). */
export const optionsObjectSchema = z.custom<Record<string, unknown> | undefined>(
  (value) => value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)),
  { error: 'Give the options as an object, e.g. { pageSize: 50 }, or leave them out.' },
);

const retryField = (name: string, min: number, max: number, int = false) =>
  (int ? z.int({ error: `retry.${name} must be a whole number.` }) : z.number({ error: `retry.${name} must be a number.` }))
    .min(min, { error: `retry.${name} must be at least ${min}.` })
    .max(max, { error: `retry.${name} must be at most ${max}.` })
    .optional();

/** Per-call `retry` (when not `false`): the client's retry fields, with the client option's limits. */
export const retryOptionsSchema = z
  .strictObject(
    {
      maxAttempts: retryField('maxAttempts', 1, 20, true),
      baseDelayMs: retryField('baseDelayMs', 0, 60_000),
      maxDelayMs: retryField('maxDelayMs', 0, 600_000),
    },
    { error: 'Give retry as false (one attempt) or an object { maxAttempts, baseDelayMs, maxDelayMs }.' },
  )
  .refine((r) => r.baseDelayMs === undefined || r.maxDelayMs === undefined || r.maxDelayMs >= r.baseDelayMs, {
    error: 'retry.maxDelayMs must be at least retry.baseDelayMs.',
    when: (payload) => payload.issues.length === 0,
  });

/** Per-call `timeoutMs`: a whole number of milliseconds, 1 to 2147483647 (the client option's limits). */
export const timeoutMsSchema = z
  .int({ error: 'Give timeoutMs as a whole number of milliseconds.' })
  .min(1, { error: 'timeoutMs must be at least 1.' })
  .max(2_147_483_647, { error: 'timeoutMs must be at most 2147483647.' });

/** Per-call `deadlineMs`: a whole number of milliseconds, 1 to 2147483647 (the client option's limits). */
export const deadlineMsSchema = z
  .int({ error: 'Give deadlineMs as a whole number of milliseconds.' })
  .min(1, { error: 'deadlineMs must be at least 1.' })
  .max(2_147_483_647, { error: 'deadlineMs must be at most 2147483647.' });

/** A callback option such as `onResponse`. */
export const callbackSchema = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  error: 'Must be a function.',
});

/** A yes/no option such as `autoRefresh`. */
export const booleanSchema = z.boolean({ error: 'Must be true or false.' });

/** A page number (API Platform's `page`): 1-based. */
export const pageNumberSchema = z
  .int({ error: 'Give page as a whole number, 1 for the first page.' })
  .min(1, { error: 'page is 1-based: the first page is 1.' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'page is too large.' });

/**
 * A page cursor (the `next` of an earlier page) for the collection at `collectionUrl`: it must lead to that same
 * collection on the same origin, so a cursor handed in from outside (a relay's caller) cannot reach another path.
 *
 * @param collectionUrl The collection's absolute URL, e.g. `https://api.example.com/sandbox/v1/courses`.
 * @returns The schema.
 */
export function cursorSchema(collectionUrl: string) {
  const collection = new URL(collectionUrl);
  const error = 'Must be the `next` cursor of an earlier page of this same collection, passed back unchanged.';
  return z
    .string({ error })
    .min(1, { error })
    .max(4096, { error })
    .refine((value) => {
      // Absolute or origin-relative only: a relative cursor would mean different pages to different resolvers.
      if (!/^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(value)) return false;
      let url: URL;
      try {
        url = new URL(value, collection);
      } catch {
        return false;
      }
      return url.origin === collection.origin && url.pathname === collection.pathname && url.hash === '';
    }, { error });
}

/** A list option given with a cursor: always refused, since the cursor already carries the list's query. */
export const cursorConflictSchema = z.never({
  error: 'Leave this out when you give a cursor: the cursor already carries the query of the list it came from.',
});
