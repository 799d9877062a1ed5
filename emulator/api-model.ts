/**
 * The API's resources as its Hydra documentation describes them: every resource of the spec, its fields (as the
 * emulator serializes them) and its operations. `api-docs.ts` turns this into `docs.jsonld` and the `@context`
 * documents, so the documentation, the contexts and the entrypoint cannot disagree with each other.
 */

/** XML Schema datatypes used as property ranges (`xmls:` prefix). */
type Scalar = 'string' | 'integer' | 'boolean' | 'dateTime';

/** One field of a resource. */
export interface FieldModel {
  name: string;
  /** A datatype, or `#Class` for a link (an IRI) or an embedded record of that class. */
  range: Scalar | `#${string}`;
  /** The value is an IRI of another resource (`hydra:Link`, `@type: @id` in the context). */
  link?: boolean;
  /** Required when the resource is written (registration). */
  required?: boolean;
  /** Can be sent in a registration or merge-patch. */
  writable?: boolean;
  description: string;
}

/** An operation as Hydra lists it: method, what it expects and returns, and a title people read. */
export interface OperationModel {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  title: string;
  /** `#Class`, `hydra:Collection` or `owl:Nothing` (an empty answer). */
  returns: string;
  expects?: string;
  /** schema.org action type, as API Platform adds one. */
  action: 'FindAction' | 'CreateAction' | 'ReplaceAction' | 'DeleteAction';
}

/** A resource class of the documentation. */
export interface ResourceModel {
  name: string;
  description: string;
  /**
   * The path (under `/{env}/v1`) the entrypoint names for it: the collection where there is one. Users have no
   * collection to read (registration is `POST /users/register`), so theirs is `/users`, the path their items live
   * under; the content of a module is per module, so its entry is the templated path `/modules/{id}/content`.
   */
  path: string;
  fields: FieldModel[];
  /** Operations on the collection path (listed on the entrypoint property). */
  collectionOperations: OperationModel[];
  /** Operations on one item (listed on the class). */
  itemOperations: OperationModel[];
}

const f = (name: string, range: FieldModel['range'], description: string, extra: Partial<FieldModel> = {}): FieldModel => ({ name, range, description, ...extra });
const stamps = [f('createdAt', 'dateTime', 'When the record was created (ISO 8601 UTC).'), f('updatedAt', 'dateTime', 'When the record last changed; the delta-sync filter field.')];
const list = (name: string, plural = `${name} resources`): OperationModel => ({ method: 'GET', title: `Retrieves the collection of ${plural}.`, returns: 'hydra:Collection', action: 'FindAction' });
const show = (name: string, note = ''): OperationModel => ({ method: 'GET', title: `Retrieves a ${name} resource.${note}`, returns: `#${name}`, action: 'FindAction' });
const USER_SCOPED = ' Needs the X-User-ID header.';

/** Every resource of the spec, in the order of its "Resources and their fields" section. */
export const RESOURCES: readonly ResourceModel[] = [
  {
    name: 'User',
    description: 'A learner profile registered by the partner.',
    path: '/users',
    fields: [
      f('uuid', 'string', 'The learner identity (36-character UUID); read-only.'),
      f('email', 'string', 'E-mail address; registration is idempotent per partner and e-mail.', { required: true, writable: true }),
      f('firstName', 'string', 'Given name.', { required: true, writable: true }),
      f('lastName', 'string', 'Family name.', { required: true, writable: true }),
      f('organizationId', 'integer', 'The id of an organization.', { required: true, writable: true }),
      ...['countryCode', 'address', 'address2', 'city', 'stateProv', 'postalCode', 'phone'].map((name) =>
        f(name, 'string', name === 'countryCode' ? 'ISO 3166-1 alpha-2 country code.' : 'Optional profile text; null clears it.', { writable: true }),
      ),
      f('status', 'string', '"active" or "inactive".', { writable: true }),
      ...stamps,
    ],
    collectionOperations: [{ method: 'POST', title: 'Registers a learner (POST /users/register); the same e-mail again returns the existing learner.', returns: '#User', expects: '#User', action: 'CreateAction' }],
    itemOperations: [
      show('User'),
      { method: 'PATCH', title: 'Updates a learner profile (application/merge-patch+json).', returns: '#User', expects: '#User', action: 'ReplaceAction' },
      { method: 'DELETE', title: 'Erases a learner; progress and transcripts are kept anonymized.', returns: 'owl:Nothing', action: 'DeleteAction' },
    ],
  },
  {
    name: 'Organization',
    description: 'Reference data chosen at registration (organizationId).',
    path: '/organizations',
    fields: [f('id', 'integer', 'Identifier.'), f('name', 'string', 'Name.'), f('countryCode', 'string', 'ISO 3166-1 alpha-2 country code.')],
    collectionOperations: [list('Organization')],
    itemOperations: [show('Organization')],
  },
  {
    name: 'Category',
    description: 'A catalog category.',
    path: '/categories',
    fields: [f('id', 'integer', 'Identifier.'), f('name', 'string', 'Name.'), f('slug', 'string', 'URL-friendly name.'), ...stamps],
    collectionOperations: [list('Category')],
    itemOperations: [show('Category')],
  },
  {
    name: 'Course',
    description: 'A published course; the detail embeds its visible modules.',
    path: '/courses',
    fields: [
      f('id', 'integer', 'Identifier.'),
      f('title', 'string', 'Title.'),
      f('description', 'string', 'Description.'),
      f('language', 'string', 'Language code.'),
      f('categoryId', 'integer', 'The id of its category.'),
      f('category', '#Category', 'Its category.', { link: true }),
      f('modules', '#Module', 'Its visible modules in course order (detail only).'),
      ...stamps,
    ],
    collectionOperations: [list('Course')],
    itemOperations: [show('Course')],
  },
  {
    name: 'Module',
    description: 'A module of a published course.',
    path: '/modules',
    fields: [
      f('id', 'integer', 'Identifier.'),
      f('courseId', 'integer', 'The id of its course.'),
      f('course', '#Course', 'Its course.', { link: true }),
      f('position', 'integer', 'Position in the course, from 1.'),
      f('title', 'string', 'Title.'),
      f('contentType', 'string', '"video", "document", "scorm" or "resource".'),
      f('mimeType', 'string', 'Media type of the content.'),
      f('durationSeconds', 'integer', 'Expected duration.'),
      f('passingScore', 'integer', '0 to 100, or null for content that is not assessed.'),
      ...stamps,
    ],
    collectionOperations: [list('Module')],
    itemOperations: [show('Module'), { method: 'POST', title: `Records the completion of a video, document or resource module (POST /modules/{id}/complete; 202).${USER_SCOPED}`, returns: 'owl:Nothing', action: 'CreateAction' }],
  },
  {
    name: 'ModuleContent',
    description: 'A signed, expiring content URL for a learner (snake_case fields).',
    path: '/modules/{id}/content',
    fields: [
      f('module_id', 'integer', 'The module.'),
      f('content_type', 'string', '"video", "document", "scorm" or "resource".'),
      f('content_url', 'string', 'Signed URL; fetch it when used, never store it.'),
      f('expires_at', 'dateTime', 'When the URL stops working (about 60 minutes after issue).'),
      f('duration_seconds', 'integer', 'Expected duration.'),
      f('mime_type', 'string', 'Media type of the content.'),
    ],
    collectionOperations: [],
    itemOperations: [
      { method: 'GET', title: `Gets a content URL (GET /modules/{id}/content); the first call creates the course progress.${USER_SCOPED}`, returns: '#ModuleContent', action: 'FindAction' },
      { method: 'GET', title: `Gets a fresh URL for content already playing (GET /modules/{id}/refresh-url).${USER_SCOPED}`, returns: '#ModuleContent', action: 'FindAction' },
    ],
  },
  {
    name: 'CourseProgress',
    description: "A learner's progress in one course.",
    path: '/course-progresses',
    fields: [
      f('id', 'integer', 'Identifier.'),
      f('courseId', 'integer', 'The course.'),
      f('courseTitle', 'string', 'The course title.'),
      f('status', 'string', '"not_started", "in_progress" or "completed".'),
      f('completionPercent', 'integer', 'Completed share of the visible modules, 0 to 100.'),
      f('startedAt', 'dateTime', 'First content access.'),
      f('lastActivityAt', 'dateTime', 'Latest activity.'),
      f('completedAt', 'dateTime', 'Completion, or null.'),
      ...stamps,
    ],
    collectionOperations: [{ ...list('CourseProgress'), title: `Retrieves the collection of CourseProgress resources.${USER_SCOPED}` }],
    itemOperations: [show('CourseProgress', USER_SCOPED)],
  },
  {
    name: 'Transcript',
    description: 'A completion record of a course or a module.',
    path: '/transcripts',
    fields: [
      f('id', 'integer', 'Identifier.'),
      f('isCourse', 'boolean', 'A course record (true) or a module record (false).'),
      f('courseId', 'integer', 'The course.'),
      f('moduleId', 'integer', 'The module, or null on course records.'),
      f('title', 'string', 'The course or module name.'),
      f('completionDate', 'dateTime', 'When it was completed.'),
      f('score', 'integer', '0 to 100, or null.'),
      f('certificateAvailable', 'boolean', 'A certificate PDF can be downloaded (GET /transcripts/{id}/certificate/pdf).'),
      ...stamps,
    ],
    collectionOperations: [{ ...list('Transcript'), title: `Retrieves the collection of Transcript resources.${USER_SCOPED}` }],
    itemOperations: [show('Transcript', USER_SCOPED)],
  },
];

/** The entrypoint key of a resource, as API Platform writes it (lower camel case of the class name). */
export const entrypointKey = (r: ResourceModel): string => r.name.charAt(0).toLowerCase() + r.name.slice(1);

/** The fields of a hydra:Error body (the context of errors). */
export const ERROR_FIELDS = ['title', 'detail', 'status', 'type', 'description'] as const;
