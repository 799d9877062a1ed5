/**
 * The description half of each relay operation, keyed by `METHOD path` of the route table (edge/routes.ts). The
 * document is built from the route table itself (paths, methods, parameters, bodies, who may call), so it cannot
 * list a route the relay does not serve; `document.test.ts` fails when a route has no entry here.
 */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tag: 'Service' | 'Learners' | 'Catalog' | 'Learning' | 'Learner tokens';
  /** The success status and what it carries (`schema`: a component of edge/openapi/schemas.ts). */
  success: { status: number; kind: 'json' | 'collection' | 'pdf' | 'empty'; schema?: string };
  /** The request body's component name (operations with a body). */
  bodyName?: string;
  /** An example request body. */
  example?: unknown;
}

const UUID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const ACT_FOR = ' A backend names the learner in `X-User-ID`; a learner token acts for its own learner.';
const list = (operationId: string, summary: string, schema: string, tag: OperationDoc['tag'], extra = ''): OperationDoc => ({
  operationId, summary, tag, success: { status: 200, kind: 'collection', schema },
  description: `${summary}, a page at a time (\`page\`, \`itemsPerPage\`); \`updatedAt[...]\` filters give a delta sync.${extra}`,
});
const get = (operationId: string, summary: string, schema: string, tag: OperationDoc['tag'], extra = ''): OperationDoc => ({
  operationId, summary, tag, success: { status: 200, kind: 'json', schema }, description: `${summary}.${extra}`,
});

export const operationDocs: Record<string, OperationDoc> = {
  'GET /v1/ping': { ...get('ping', 'Check the relay can reach the service', 'Health', 'Service'), description: 'The service health, through the relay: `status` is `healthy` when all is well.' },
  'POST /v1/users/register': {
    operationId: 'registerUser', summary: 'Register a learner', tag: 'Learners', success: { status: 201, kind: 'json', schema: 'User' },
    description: 'Registers a learner; registering the same e-mail again returns the existing learner. Keep the returned `uuid`: every later call names the learner by it.',
    bodyName: 'RegisterUser', example: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: 1 },
  },
  'GET /v1/users/{uuid}': get('getUser', 'Read a learner', 'User', 'Learners'),
  'PATCH /v1/users/{uuid}': {
    ...get('updateUser', 'Change a learner', 'User', 'Learners'),
    description: 'Changes profile fields (JSON merge patch: send only what changes; `null` clears an optional field; `status` deactivates or reactivates).',
    bodyName: 'UserPatch', example: { city: 'London', status: 'active' },
  },
  'DELETE /v1/users/{uuid}': { operationId: 'deleteUser', summary: 'Delete a learner', tag: 'Learners', success: { status: 204, kind: 'empty' }, description: 'Erases the learner; progress and transcripts are kept, anonymized.' },
  'GET /v1/me': get('getMe', 'Read the learner the token is for', 'User', 'Learners', ' Learner tokens only.'),
  'GET /v1/organizations': list('listOrganizations', 'List organizations', 'Organization', 'Catalog'),
  'GET /v1/organizations/{id}': get('getOrganization', 'Read an organization', 'Organization', 'Catalog'),
  'GET /v1/categories': list('listCategories', 'List categories', 'Category', 'Catalog'),
  'GET /v1/categories/{id}': get('getCategory', 'Read a category', 'Category', 'Catalog'),
  'GET /v1/courses': list('listCourses', 'List courses', 'Course', 'Catalog'),
  'GET /v1/courses/{id}': get('getCourse', 'Read a course with its modules', 'CourseDetail', 'Catalog'),
  'GET /v1/modules': list('listModules', 'List modules', 'Module', 'Catalog'),
  'GET /v1/modules/{id}': get('getModule', 'Read a module', 'Module', 'Catalog'),
  'GET /v1/modules/{id}/content': get('getModuleContent', "A learner's content URL for a module", 'ModuleContent', 'Learning', ` The URL is signed and lives about an hour: fetch it when the learner needs it, never store it. The first call starts the course's progress.${ACT_FOR}`),
  'GET /v1/modules/{id}/refresh-url': get('refreshModuleUrl', "Refresh a learner's content URL", 'ModuleContent', 'Learning', ` A new signed URL; progress is not touched.${ACT_FOR}`),
  'POST /v1/modules/{id}/complete': { operationId: 'completeModule', summary: 'Mark a module complete for a learner', tag: 'Learning', success: { status: 202, kind: 'empty' }, description: `Reports a completion (accepted; the transcript follows). SCORM modules report their own: 409.${ACT_FOR}` },
  'GET /v1/course-progresses': list('listCourseProgresses', "A learner's course progress", 'CourseProgress', 'Learning', ACT_FOR),
  'GET /v1/course-progresses/{id}': get('getCourseProgress', 'Read one course progress', 'CourseProgress', 'Learning', ACT_FOR),
  'GET /v1/transcripts': list('listTranscripts', "A learner's transcripts", 'Transcript', 'Learning', ACT_FOR),
  'GET /v1/transcripts/{id}': get('getTranscript', 'Read one transcript', 'Transcript', 'Learning', ACT_FOR),
  'GET /v1/transcript/pdf': { operationId: 'getTranscriptPdf', summary: "A learner's transcript as PDF", tag: 'Learning', success: { status: 200, kind: 'pdf' }, description: `The learner's whole transcript as a PDF, streamed.${ACT_FOR}` },
  'GET /v1/transcripts/{id}/certificate/pdf': { operationId: 'getCertificatePdf', summary: 'A certificate as PDF', tag: 'Learning', success: { status: 200, kind: 'pdf' }, description: `The certificate of one transcript record (where \`certificateAvailable\`), streamed.${ACT_FOR}` },
  'POST /v1/learner-tokens': {
    operationId: 'mintLearnerToken', summary: 'Mint a learner token', tag: 'Learner tokens', success: { status: 201, kind: 'json', schema: 'LearnerToken' },
    description: 'A short-lived token (60 to 3600 s, default 900) that lets a browser call the learner routes for this one learner. The learner must be the partner\'s (else 404) and active (else 403 `inactive_learner`).',
    bodyName: 'LearnerTokenRequest', example: { userId: UUID, ttlSeconds: 900 },
  },
};
