/** The service's operations (spec, "Endpoints"), for the OpenAPI document (emulator/openapi.ts). */

export interface ServiceOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Under `/{env}/v1`, OpenAPI style. */
  path: string;
  operationId: string;
  summary: string;
  tag: 'Service' | 'Learners' | 'Catalog' | 'Learning';
  scope: 'partner-api/read' | 'partner-api/write';
  userScoped?: boolean;
  body?: { type: string; schema: string; example: unknown };
  success: { status: number; kind: 'json' | 'collection' | 'pdf' | 'empty'; schema?: string };
  /** The error statuses besides the success. */
  errors: number[];
}

const READ = 'partner-api/read';
const WRITE = 'partner-api/write';
const AUTH = [401, 403, 429, 500];
const item = (path: string, operationId: string, summary: string, schema: string, tag: ServiceOperation['tag'], userScoped = false): ServiceOperation =>
  ({ method: 'GET', path, operationId, summary, tag, scope: READ, userScoped, success: { status: 200, kind: 'json', schema }, errors: [...(userScoped ? [400] : []), ...AUTH, 404] });
const list = (path: string, operationId: string, summary: string, schema: string, tag: ServiceOperation['tag'], userScoped = false): ServiceOperation =>
  ({ method: 'GET', path, operationId, summary, tag, scope: READ, userScoped, success: { status: 200, kind: 'collection', schema }, errors: [400, ...AUTH, ...(userScoped ? [404] : [])] });

export const SERVICE_OPERATIONS: readonly ServiceOperation[] = [
  { method: 'GET', path: '/ping', operationId: 'ping', summary: 'Health (API key only)', tag: 'Service', scope: READ, success: { status: 200, kind: 'json', schema: 'Health' }, errors: [403, 429, 500] },
  {
    method: 'POST', path: '/users/register', operationId: 'registerUser', summary: 'Register a learner (idempotent per e-mail)', tag: 'Learners', scope: WRITE,
    body: { type: 'application/json', schema: 'RegisterUser', example: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: 1 } },
    success: { status: 201, kind: 'json', schema: 'User' }, errors: [400, ...AUTH, 404, 415],
  },
  item('/users/{uuid}', 'getUser', 'Read a learner', 'User', 'Learners'),
  {
    method: 'PATCH', path: '/users/{uuid}', operationId: 'updateUser', summary: 'Change a learner (JSON merge patch)', tag: 'Learners', scope: WRITE,
    body: { type: 'application/merge-patch+json', schema: 'UserPatch', example: { city: 'London' } },
    success: { status: 200, kind: 'json', schema: 'User' }, errors: [400, ...AUTH, 404, 415],
  },
  { method: 'DELETE', path: '/users/{uuid}', operationId: 'deleteUser', summary: 'Erase a learner', tag: 'Learners', scope: WRITE, success: { status: 204, kind: 'empty' }, errors: [400, ...AUTH, 404] },
  list('/organizations', 'listOrganizations', 'List organizations', 'Organization', 'Catalog'),
  item('/organizations/{id}', 'getOrganization', 'Read an organization', 'Organization', 'Catalog'),
  list('/categories', 'listCategories', 'List categories', 'Category', 'Catalog'),
  item('/categories/{id}', 'getCategory', 'Read a category', 'Category', 'Catalog'),
  list('/courses', 'listCourses', 'List courses', 'Course', 'Catalog'),
  item('/courses/{id}', 'getCourse', 'Read a course with its modules', 'CourseDetail', 'Catalog'),
  list('/modules', 'listModules', 'List modules', 'Module', 'Catalog'),
  item('/modules/{id}', 'getModule', 'Read a module', 'Module', 'Catalog'),
  item('/modules/{id}/content', 'getModuleContent', "A learner's signed content URL (first access starts progress)", 'ModuleContent', 'Learning', true),
  item('/modules/{id}/refresh-url', 'refreshModuleUrl', 'A fresh signed content URL', 'ModuleContent', 'Learning', true),
  { method: 'POST', path: '/modules/{id}/complete', operationId: 'completeModule', summary: 'Report a completion (not SCORM)', tag: 'Learning', scope: WRITE, userScoped: true, success: { status: 202, kind: 'empty' }, errors: [400, ...AUTH, 404, 409] },
  list('/course-progresses', 'listCourseProgresses', "A learner's course progress", 'CourseProgress', 'Learning', true),
  item('/course-progresses/{id}', 'getCourseProgress', 'One course progress', 'CourseProgress', 'Learning', true),
  list('/transcripts', 'listTranscripts', "A learner's transcripts", 'Transcript', 'Learning', true),
  item('/transcripts/{id}', 'getTranscript', 'One transcript record', 'Transcript', 'Learning', true),
  { ...item('/transcript/pdf', 'getTranscriptPdf', "The learner's transcript as PDF", '', 'Learning', true), success: { status: 200, kind: 'pdf' } },
  { ...item('/transcripts/{id}/certificate/pdf', 'getCertificatePdf', 'A certificate as PDF', '', 'Learning', true), success: { status: 200, kind: 'pdf' } },
];
