/**
 * What each workflow run in the real n8n must produce (scripts/n8n-e2e.ts), keyed by workflow file name. The
 * templates (examples/n8n/) run unchanged; the per-resource workflows are in test/n8n/workflows/.
 */

/** The credential every workflow file references (imported by the e2e run with the emulator's values). */
export const CREDENTIAL_ID = 'plEmulatorCred01';
export const CREDENTIAL_NAME = 'Partner Learning account';

export interface OutputItem {
  json: Record<string, unknown>;
  binary?: Record<string, { fileName?: string; mimeType?: string; fileSize?: string }>;
}

/** `data.resultData.runData` of an execution. */
export type RunData = Record<string, Array<{ data?: { main?: Array<OutputItem[] | null> } }>>;

/** One line of the emulator's request log (`GET /_emulator/requests`), cleared before each workflow run. */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** What a check may ask the emulator about its run. */
export interface Emulator {
  requests(): Promise<LoggedRequest[]>;
}

type Check = (run: RunData, emulator: Emulator) => void | Promise<void>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** `n8n execute --rawOutput` prints log lines, then the execution as JSON from a line `{` to a line `}`. */
export function executionJson(stdout: string): { data: { resultData: { runData: RunData; error?: { message?: string } } } } {
  const start = stdout.search(/^\{$/m);
  const end = stdout.lastIndexOf('\n}');
  if (start < 0 || end < 0) throw new Error(`no execution JSON in n8n's output:\n${stdout.slice(-2000)}`);
  return JSON.parse(stdout.slice(start, end + 2));
}

/** The items a node output (first run, first output). */
export function itemsOf(run: RunData, node: string): OutputItem[] {
  const items = run[node]?.[0]?.data?.main?.[0];
  if (!items) throw new Error(`node "${node}" produced no output`);
  return items;
}

function expect(condition: unknown, message: string): void {
  if (!condition) throw new Error(message);
}

function one(run: RunData, node: string): Record<string, unknown> {
  const items = itemsOf(run, node);
  expect(items.length === 1, `${node}: expected 1 item, got ${items.length}`);
  return items[0]!.json;
}

function pdf(item: OutputItem, field: string, fileName: RegExp): void {
  const binary = item.binary?.[field];
  expect(binary, `expected a binary field "${field}", got ${Object.keys(item.binary ?? {}).join(', ') || 'none'}`);
  expect(binary!.mimeType === 'application/pdf', `mimeType ${binary!.mimeType}`);
  expect(fileName.test(binary!.fileName ?? ''), `fileName ${binary!.fileName}`);
  expect(item.json.fileName === binary!.fileName && item.json.mimeType === 'application/pdf', `json ${JSON.stringify(item.json)}`);
}

function registered(run: RunData): string {
  const user = one(run, 'Register');
  expect(typeof user.uuid === 'string' && UUID.test(user.uuid), `Register: uuid ${String(user.uuid)}`);
  return user.uuid as string;
}

/** Per workflow file: what its run must show. */
export const checks: Record<string, Check> = {
  'user.json': (run) => {
    const uuid = registered(run);
    expect(one(run, 'Get').email === 'e2e.user@example.com', 'Get: e-mail');
    expect(one(run, 'Update').city === 'Paris', 'Update: city');
    expect(one(run, 'Deactivate').status === 'inactive', 'Deactivate: status');
    expect(one(run, 'Reactivate').status === 'active', 'Reactivate: status');
    const deleted = one(run, 'Delete');
    expect(deleted.userId === uuid && deleted.deleted === true, `Delete: ${JSON.stringify(deleted)}`);
  },
  'organization.json': (run) => {
    expect(itemsOf(run, 'Get Many').length === 2, 'Get Many: limit 2');
    expect(one(run, 'Get').id === 1, 'Get: id 1');
  },
  'category.json': (run) => {
    expect(itemsOf(run, 'Get Many').length === 5, 'Get Many: all 5 categories');
    expect(one(run, 'Get').id === 2, 'Get: id 2');
  },
  'course.json': (run) => {
    const courses = itemsOf(run, 'Get Many');
    expect(courses.length === 3, 'Get Many: limit 3');
    const details = itemsOf(run, 'Get');
    expect(details.length === 3 && details.every((d) => Array.isArray(d.json.modules)), 'Get: one detail per course, with modules');
  },
  'module.json': (run) => {
    expect(itemsOf(run, 'Get Many').length >= 10, 'Get Many: every published module');
    expect(one(run, 'Get').contentType === 'scorm', 'Get: module 5 is SCORM');
  },
  'content.json': (run) => {
    registered(run);
    const content = one(run, 'Get Content');
    expect(content.module_id === 1 && typeof content.content_url === 'string', `Get Content: ${JSON.stringify(content)}`);
    expect(typeof one(run, 'Refresh').expires_at === 'string', 'Refresh: expires_at');
  },
  'completion.json': (run) => {
    const uuid = registered(run);
    const done = one(run, 'Complete');
    expect(done.moduleId === 2 && done.userId === uuid && done.completed === true, `Complete: ${JSON.stringify(done)}`);
    const scorm = one(run, 'Complete SCORM');
    expect(scorm.code === 'conflict' && scorm.status === 409 && typeof scorm.error === 'string', `Complete SCORM: ${JSON.stringify(scorm)}`);
  },
  'progress.json': (run) => {
    registered(run);
    const all = itemsOf(run, 'Get Many');
    expect(all.length === 1 && all[0]!.json.status === 'in_progress', `Get Many: ${JSON.stringify(all)}`);
    expect(one(run, 'Get').status === 'in_progress', 'Get: in_progress');
  },
  'transcript.json': (run) => {
    registered(run);
    const records = itemsOf(run, 'Get Many');
    expect(records.length === 4, `Get Many: 3 module transcripts and 1 course transcript, got ${records.length}`);
    expect(itemsOf(run, 'Get').length === 4, 'Get: each record');
    const certificates = itemsOf(run, 'Download Certificate');
    expect(certificates.length === 1, 'one certificate (the course transcript)');
    pdf(certificates[0]!, 'certificate', /^certificate-.+\.pdf$/);
    pdf(itemsOf(run, 'Download Transcript')[0]!, 'data', /^transcript-.+\.pdf$/);
  },
  'onboarding-new-hire.json': (run) => {
    const learner = one(run, 'Register learner');
    expect(typeof learner.uuid === 'string' && UUID.test(learner.uuid), 'Register learner: uuid');
    const link = one(run, 'First module link');
    expect(link.module_id === 1 && typeof link.content_url === 'string', `First module link: ${JSON.stringify(link)}`);
    const message = one(run, 'Welcome message');
    expect(String(message.text).includes(String(link.content_url)), 'Welcome message carries the link');
    // e-mail -> learner ID, for the HR record the offboarding template reads.
    const record = one(run, 'Learner ID for the HR record');
    expect(record.email === 'ada.lovelace@example.com' && record.learnerId === learner.uuid, `Learner ID for the HR record: ${JSON.stringify(record)}`);
  },
  'weekly-empty.json': (run) => {
    // The weekly template for a learner with no records: it must say so, not end silently.
    expect(itemsOf(run, 'Find learner').length === 1, 'Find learner: the one learner of the roster');
    expect(run['Certificate PDF'] === undefined, 'Certificate PDF: must not run without completions');
    const summary = one(run, 'Summary');
    expect(summary.message === 'No completions last week' && summary.completions === 0, `Summary: ${JSON.stringify(summary)}`);
  },
  'weekly-completions-report.json': (run) => {
    expect(itemsOf(run, 'Find learner').length === 2, 'Find learner: both learners of the roster');
    // Ada earned the course certificate in transcript.json (run before the templates).
    const certificates = itemsOf(run, 'Certificate PDF');
    expect(certificates.length === 1, `Certificate PDF: ${certificates.length} items`);
    pdf(certificates[0]!, 'certificate', /^certificate-.+\.pdf$/);
    const summary = one(run, 'Summary');
    const records = itemsOf(run, 'Completions this week').length;
    expect(summary.completions === records && records > 0, `Summary: ${JSON.stringify(summary)} for ${records} records`);
    expect(summary.message === `${records} completion${records === 1 ? '' : 's'} last week`, `Summary message: ${String(summary.message)}`);
  },
  'offboarding.json': async (run, emulator) => {
    // The sample leaver's HR record has no learner ID (never onboarded): a clear "not found", nothing touched.
    const missing = one(run, 'Learner not found');
    expect(missing.found === false && missing.email === 'leaver@example.com', `Learner not found: ${JSON.stringify(missing)}`);
    expect(/^Not found: no Partner Learning learner for leaver@example\.com .*Nothing was deactivated, erased or registered\.$/.test(String(missing.message)), `message: ${String(missing.message)}`);
    expect(run['Deactivate learner'] === undefined && run['Erase learner'] === undefined, 'Deactivate/Erase must not run for an unknown leaver');
    // Nothing registered: the run sent no write at all (the token request aside), so no learner was created.
    const writes = (await emulator.requests()).filter((r) => r.method !== 'GET' && !r.path.endsWith('/oauth2/token'));
    expect(writes.length === 0, `offboarding wrote to the service: ${writes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  },
  'errors.json': (run) => {
    const invalid = one(run, 'Get');
    expect(invalid.code === 'validation_failed' && invalid.status === null, `Get: ${JSON.stringify(invalid)}`);
    const missing = one(run, 'Missing Course');
    expect(missing.code === 'not_found' && missing.status === 404, `Missing Course: ${JSON.stringify(missing)}`);
  },
};
