import { describe, expect, it } from 'vitest';
import { testBed } from '../../test/support/emulator-testbed.ts';

interface Progress {
  status: string;
  completionPercent: number;
  startedAt: string;
  completedAt: string | null;
}
interface Transcript {
  id: number;
  isCourse: boolean;
  courseId: number;
  moduleId: number | null;
  score: number | null;
  certificateAvailable: boolean;
}
const members = async <T>(res: Response) => ((await res.json()) as { 'hydra:member': T[] })['hydra:member'];

describe('content and learning records', () => {
  it('applies the X-User-ID rules before the module lookup', async () => {
    const t = testBed();
    const u = await t.register();
    const missing = await t.api('/modules/1/content');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain('X-User-ID');
    expect((await t.api('/modules/1/content', { user: 'abc' })).status).toBe(400);
    expect((await t.api('/modules/1/content', { user: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await t.api('/modules/999/content', { user: u.uuid })).status).toBe(404);
    // Module 10 lies only in an unpublished course.
    expect((await t.api('/modules/10/content', { user: u.uuid })).status).toBe(404);
  });

  it('checks the learner on every user-scoped route, and only for the methods the route takes', async () => {
    const t = testBed();
    const u = await t.register();
    await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"status":"inactive"}' });
    const routes: [string, string][] = [
      ['GET', '/modules/1/content'], ['GET', '/modules/1/refresh-url'], ['POST', '/modules/1/complete'],
      ['GET', '/course-progresses'], ['GET', '/course-progresses/1'], ['GET', '/transcripts'], ['GET', '/transcripts/1'],
      ['GET', '/transcript/pdf'], ['GET', '/transcripts/1/certificate/pdf'],
    ];
    for (const [method, path] of routes) {
      expect((await t.api(path, { method })).status, `${method} ${path} without X-User-ID`).toBe(400);
      const inactive = await t.api(path, { method, user: u.uuid });
      expect(inactive.status, `${method} ${path} inactive`).toBe(403);
      expect(JSON.stringify(await inactive.json())).toContain('The user is inactive');
    }
    // A method the path does not take is 405 whatever the header says.
    expect((await t.api('/course-progresses', { method: 'DELETE' })).status).toBe(405);
    expect((await t.api('/modules/1/complete', { method: 'GET' })).status).toBe(405);
  });

  it('creates progress on first content access and serves a signed URL that expires on the emulator clock', async () => {
    const t = testBed();
    const u = await t.register();
    expect(await members(await t.api('/course-progresses', { user: u.uuid }))).toEqual([]);
    const res = await t.api('/modules/2/content', { user: u.uuid });
    const content = (await res.json()) as Record<string, string | number>;
    expect(content).toMatchObject({ '@type': 'ModuleContent', module_id: 2, content_type: 'document', mime_type: 'application/pdf', expires_at: new Date(t.clock.ms + 3_600_000).toISOString() });
    const [progress] = await members<Progress>(await t.api('/course-progresses', { user: u.uuid }));
    expect(progress).toMatchObject({ status: 'in_progress', completionPercent: 0 });
    const file = await t.send(String(content.content_url));
    expect(file.status).toBe(200);
    expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    const tampered = String(content.content_url).replace('modules', 'x').replace(/learner=[^&]+/, 'learner=00000000-0000-4000-8000-000000000000');
    expect((await t.send(tampered)).status).toBe(403);
    const refreshed = (await (await t.api('/modules/2/refresh-url', { user: u.uuid })).json()) as Record<string, string>;
    expect(refreshed.content_url).not.toBe(content.content_url);
    t.emulator.advanceClock(3601);
    expect((await t.send(String(content.content_url))).status).toBe(403);
  });

  it('completes modules (202, repeat no-op, SCORM 409) and derives course completion from the transcript', async () => {
    const t = testBed();
    const u = await t.register();
    const complete = (id: number) => t.api(`/modules/${id}/complete`, { method: 'POST', user: u.uuid });
    expect((await complete(5)).status).toBe(409);
    expect((await complete(1)).status).toBe(202);
    expect((await complete(1)).status).toBe(202);
    let [progress] = await members<Progress>(await t.api('/course-progresses', { user: u.uuid }));
    expect(progress).toMatchObject({ status: 'in_progress', completionPercent: 33, completedAt: null });
    await complete(2);
    await complete(3);
    [progress] = await members<Progress>(await t.api('/course-progresses', { user: u.uuid }));
    expect(progress).toMatchObject({ status: 'completed', completionPercent: 100 });
    const transcripts = await members<Transcript>(await t.api('/transcripts', { user: u.uuid }));
    expect(transcripts.map((x) => [x.isCourse, x.moduleId, x.certificateAvailable])).toEqual([
      [false, 1, false],
      [false, 2, false],
      [false, 3, false],
      [true, null, true],
    ]);
    const course = transcripts[3] as Transcript;
    const pdf = await t.api(`/transcripts/${course.id}/certificate/pdf`, { user: u.uuid });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await t.api(`/transcripts/${transcripts[0]?.id}/certificate/pdf`, { user: u.uuid })).status).toBe(404);
    const other = await t.register('other@example.com');
    expect((await t.api(`/transcripts/${course.id}`, { user: other.uuid })).status).toBe(404);
    expect((await t.api(`/transcripts/${course.id}/certificate/pdf`, { user: other.uuid })).status).toBe(404);
  });

  it('applies SCORM completions from the control interface with a score', async () => {
    const t = testBed();
    const u = await t.register();
    const post = (body: object) => t.send('/_emulator/scorm-completions', { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ env: 'sandbox', userUuid: u.uuid, moduleId: 4, score: 90 })).status).toBe(400);
    expect((await post({ env: 'sandbox', userUuid: u.uuid, moduleId: 5, score: 101 })).status).toBe(400);
    expect((await post({ env: 'sandbox', userUuid: '00000000-0000-4000-8000-000000000000', moduleId: 5, score: 90 })).status).toBe(404);
    expect((await post({ env: 'sandbox', userUuid: u.uuid, moduleId: 5, score: 90 })).status).toBe(201);
    expect((await post({ env: 'sandbox', userUuid: u.uuid, moduleId: 5, score: 90 })).status).toBe(200);
    await t.api('/modules/4/complete', { method: 'POST', user: u.uuid });
    await t.api('/modules/6/complete', { method: 'POST', user: u.uuid });
    const course = (await members<Transcript>(await t.api('/transcripts', { user: u.uuid }))).find((x) => x.isCourse);
    expect(course).toMatchObject({ courseId: 2, score: 90, certificateAvailable: true });
  });

  it('keeps records of an erased learner away from everyone', async () => {
    const t = testBed();
    const u = await t.register();
    await t.api('/modules/1/complete', { method: 'POST', user: u.uuid });
    await t.api(`/users/${u.uuid}`, { method: 'DELETE' });
    const again = await t.register();
    expect(await members(await t.api('/transcripts', { user: again.uuid }))).toEqual([]);
  });

  it('creates 100,000 synthetic transcripts quickly and pages through them', async () => {
    const t = testBed();
    const u = await t.register();
    const res = await t.send('/_emulator/bulk-transcripts', { method: 'POST', body: JSON.stringify({ env: 'sandbox', userUuid: u.uuid, count: 100_000 }) });
    expect(res.status).toBe(201);
    const page = (await (await t.api('/transcripts?page=1000&itemsPerPage=100', { user: u.uuid })).json()) as Record<string, unknown>;
    expect(page['hydra:totalItems']).toBe(100_000);
    expect((page['hydra:member'] as unknown[]).length).toBe(100);
    expect((page['hydra:view'] as Record<string, string>)['hydra:next']).toBeUndefined();
  });
});
