import { describe, expect, it } from 'vitest';
import { testBed } from '../test/support/emulator-testbed.ts';

const post = (body: object) => ({ method: 'POST', body: JSON.stringify(body) });

describe('control interface', () => {
  it('lists the catalog with unpublished courses and modules of every type', async () => {
    const t = testBed();
    const courses = (await (await t.send('/_emulator/catalog?env=production')).json()) as { published: boolean; modules: { contentType: string; passingScore: number | null }[] }[];
    expect(courses.some((c) => !c.published)).toBe(true);
    const modules = courses.flatMap((c) => c.modules);
    expect(new Set(modules.map((m) => m.contentType))).toEqual(new Set(['video', 'document', 'scorm', 'resource']));
    expect(modules.some((m) => m.passingScore === null) && modules.some((m) => m.passingScore !== null)).toBe(true);
    expect((await t.send('/_emulator/catalog?env=staging')).status).toBe(400);
  });

  it('logs API and token calls (not control calls) and clears the log', async () => {
    const t = testBed();
    await t.api('/courses?page=1');
    const log = (await (await t.send('/_emulator/requests')).json()) as { method: string; path: string; query: string; status: number; env: string }[];
    expect(log.map((e) => [e.method, e.path, e.status, e.env])).toEqual([
      ['POST', '/sandbox/oauth2/token', 200, 'sandbox'],
      ['GET', '/sandbox/v1/courses', 200, 'sandbox'],
    ]);
    expect(log[1]?.query).toBe('page=1');
    await t.send('/_emulator/requests', { method: 'DELETE' });
    expect(await (await t.send('/_emulator/requests')).json()).toEqual([]);
  });

  it('injects faults: gateway bodies, afterCommit applies the change, status 0 rejects like a dropped socket', async () => {
    const t = testBed();
    const token = await t.token();
    expect((await t.send('/_emulator/faults', post({ rate: 1, statuses: [503], pathPattern: '/courses' }))).status).toBe(200);
    const failed = await t.api('/courses');
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ message: 'Service Unavailable' });
    expect((await t.api('/categories')).status).toBe(200);

    await t.send('/_emulator/faults', post({ rate: 1, statuses: [500], afterCommit: true, pathPattern: 'register' }));
    const body = JSON.stringify({ email: 'commit@example.com', firstName: 'A', lastName: 'B', organizationId: 2 });
    const register = () => t.api('/users/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const res = await register();
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal server error' });
    await t.send('/_emulator/faults', { method: 'DELETE' });
    const uuid = ((await (await register()).json()) as { uuid: string }).uuid;
    expect(uuid).toHaveLength(36);

    await t.send('/_emulator/faults', post({ rate: 1, statuses: [0] }));
    await expect(t.send(`${t.env.baseUrl}/ping`, { headers: { 'x-api-key': t.env.apiKey, authorization: `Bearer ${token}` } })).rejects.toThrow('fetch failed');
    const log = (await (await t.send('/_emulator/requests')).json()) as { status: number }[];
    expect(log.at(-1)?.status).toBe(0);
    expect((await t.send('/_emulator/faults', post({ rate: 2 }))).status).toBe(400);
  });

  it('resets to the seed: learners, clock and faults', async () => {
    const t = testBed();
    const u = await t.register();
    const before = t.emulator.now();
    t.emulator.advanceClock(120);
    await t.send('/_emulator/faults', post({ rate: 1, statuses: [500] }));
    const res = await t.send('/_emulator/reset', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(t.emulator.now()).toBe(before);
    expect((await t.api(`/users/${u.uuid}`)).status).toBe(404);
    const clock = (await (await t.send('/_emulator/clock', post({ advanceSeconds: 60 }))).json()) as { now: string };
    expect(clock.now).toBe(new Date(before + 60_000).toISOString());
  });

  it('reads a usage plan back (extension), and reset restores the seeded plan', async () => {
    const t = testBed();
    const url = `/_emulator/usage-plans/${t.env.apiKey}`;
    const seeded = await (await t.send(url)).json();
    expect(seeded).toEqual({ ratePerSecond: 1000, burst: 2000, dailyQuota: 1_000_000 });
    await t.send(url, { method: 'PUT', body: '{"dailyQuota":5}' });
    expect(await (await t.send(url)).json()).toEqual({ ratePerSecond: 1000, burst: 2000, dailyQuota: 5 });
    await t.send('/_emulator/reset', { method: 'POST' });
    expect(await (await t.send(url)).json()).toEqual(seeded);
    expect((await t.send('/_emulator/usage-plans/nope')).status).toBe(404);
  });

  it('disables an API key (extension)', async () => {
    const t = testBed();
    await t.send(`/_emulator/api-keys/${t.env.apiKey}`, { method: 'PUT', body: '{"enabled":false}' });
    const res = await t.send('/sandbox/v1/ping', { headers: { 'x-api-key': t.env.apiKey } });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('');
  });

  it('derives the same credentials from the same seed and different ones from another', () => {
    const a = testBed({ seed: 5 }).emulator.partners('http://x');
    expect(testBed({ seed: 5 }).emulator.partners('http://x')).toEqual(a);
    expect(testBed({ seed: 6 }).emulator.partners('http://x')[0]?.environments.sandbox.apiKey).not.toBe(a[0]?.environments.sandbox.apiKey);
    expect(a[0]?.environments.sandbox.apiKey).toHaveLength(40);
    expect(a[0]?.environments.sandbox.clients[0]?.clientId).toMatch(/^[a-z0-9]{26}$/);
  });
});

describe('clock range', () => {
  it('refuses a move past 9999 with 400 and keeps the clock, so later requests still work', async () => {
    const t = testBed();
    const before = t.emulator.now();
    for (const advanceSeconds of [1e13, 1e300, 8e12 - 1]) {
      const res = await t.send('/_emulator/clock', post({ advanceSeconds }));
      expect(res.status, String(advanceSeconds)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/^advanceSeconds: the clock can move forward by 0 to \d+ seconds/);
      expect(t.emulator.now()).toBe(before);
    }
    expect(() => t.emulator.advanceClock(1e13)).toThrow(RangeError);
    expect(t.emulator.now()).toBe(before);
    expect((await t.api('/courses')).status).toBe(200);
    expect((await t.send('/_emulator/reset', { method: 'POST' })).status).toBe(200);
    // Right up to the limit is still allowed.
    const limit = (Date.UTC(9999, 0, 1) - before) / 1000;
    expect(((await (await t.send('/_emulator/clock', post({ advanceSeconds: limit }))).json()) as { now: string }).now).toBe('9999-01-01T00:00:00.000Z');
    expect((await t.send('/_emulator/clock', post({ advanceSeconds: 0.001 }))).status).toBe(400);
  });
});
