/**
 * The description half of each relay operation, keyed by `METHOD path` of the route table (edge/routes.ts). The
 * document is built from the route table itself (paths, methods, parameters, who may call), so it cannot list a
 * route the relay does not serve; `document.test.ts` fails when a route has no entry here.
 */
export interface OperationDoc {
  operationId: string;
  summary: string;
  /** The success status and what it carries. */
  success: { status: number; kind: 'json' | 'collection' | 'pdf' | 'empty'; schema?: string };
}

export const operationDocs: Record<string, OperationDoc> = {
  'GET /v1/ping': { operationId: 'ping', summary: 'Check the relay can reach the service', success: { status: 200, kind: 'json' } },
  'POST /v1/users/register': { operationId: 'registerUser', summary: 'Register a learner', success: { status: 201, kind: 'json', schema: 'User' } },
  'GET /v1/users/{uuid}': { operationId: 'getUser', summary: 'Read a learner', success: { status: 200, kind: 'json', schema: 'User' } },
  'PATCH /v1/users/{uuid}': { operationId: 'updateUser', summary: 'Change a learner (JSON merge patch)', success: { status: 200, kind: 'json', schema: 'User' } },
  'DELETE /v1/users/{uuid}': { operationId: 'deleteUser', summary: 'Delete a learner', success: { status: 204, kind: 'empty' } },
  'GET /v1/me': { operationId: 'getMe', summary: 'Read the learner the token is for', success: { status: 200, kind: 'json', schema: 'User' } },
  'GET /v1/organizations': { operationId: 'listOrganizations', summary: 'List organizations', success: { status: 200, kind: 'collection', schema: 'Organization' } },
  'GET /v1/organizations/{id}': { operationId: 'getOrganization', summary: 'Read an organization', success: { status: 200, kind: 'json', schema: 'Organization' } },
  'GET /v1/categories': { operationId: 'listCategories', summary: 'List categories', success: { status: 200, kind: 'collection', schema: 'Category' } },
  'GET /v1/categories/{id}': { operationId: 'getCategory', summary: 'Read a category', success: { status: 200, kind: 'json', schema: 'Category' } },
  'GET /v1/courses': { operationId: 'listCourses', summary: 'List courses', success: { status: 200, kind: 'collection', schema: 'Course' } },
  'GET /v1/courses/{id}': { operationId: 'getCourse', summary: 'Read a course', success: { status: 200, kind: 'json', schema: 'Course' } },
  'GET /v1/modules': { operationId: 'listModules', summary: 'List modules', success: { status: 200, kind: 'collection', schema: 'Module' } },
  'GET /v1/modules/{id}': { operationId: 'getModule', summary: 'Read a module', success: { status: 200, kind: 'json', schema: 'Module' } },
  'GET /v1/modules/{id}/content': { operationId: 'getModuleContent', summary: "A learner's content URL for a module", success: { status: 200, kind: 'json', schema: 'ModuleContent' } },
  'GET /v1/modules/{id}/refresh-url': { operationId: 'refreshModuleUrl', summary: "Refresh a learner's content URL", success: { status: 200, kind: 'json', schema: 'ModuleContent' } },
  'POST /v1/modules/{id}/complete': { operationId: 'completeModule', summary: 'Mark a module complete for a learner', success: { status: 202, kind: 'empty' } },
  'GET /v1/course-progresses': { operationId: 'listCourseProgresses', summary: "A learner's course progress", success: { status: 200, kind: 'collection', schema: 'CourseProgress' } },
  'GET /v1/course-progresses/{id}': { operationId: 'getCourseProgress', summary: 'Read one course progress', success: { status: 200, kind: 'json', schema: 'CourseProgress' } },
  'GET /v1/transcripts': { operationId: 'listTranscripts', summary: "A learner's transcripts", success: { status: 200, kind: 'collection', schema: 'Transcript' } },
  'GET /v1/transcripts/{id}': { operationId: 'getTranscript', summary: 'Read one transcript', success: { status: 200, kind: 'json', schema: 'Transcript' } },
  'GET /v1/transcript/pdf': { operationId: 'getTranscriptPdf', summary: "A learner's transcript as PDF", success: { status: 200, kind: 'pdf' } },
  'GET /v1/transcripts/{id}/certificate/pdf': { operationId: 'getCertificatePdf', summary: 'A certificate as PDF', success: { status: 200, kind: 'pdf' } },
  'POST /v1/learner-tokens': { operationId: 'mintLearnerToken', summary: 'Mint a learner token', success: { status: 201, kind: 'json', schema: 'LearnerToken' } },
};
