import { describe, expect, it } from 'vitest';
import { drainable } from './drain.ts';

describe('drainable', () => {
  it('lets calls under way finish, answers new ones 503, and resolves once idle', async () => {
    let finish = (): void => undefined;
    const relay = drainable(() => new Promise<Response>((resolve) => { finish = () => resolve(new Response('done')); }));
    const under = relay.fetch(new Request('http://relay.test/v1/ping'));
    let drained = false;
    const drain = relay.drain(60_000).then(() => { drained = true; });
    const late = await relay.fetch(new Request('http://relay.test/v1/ping'));
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('1');
    await Promise.resolve();
    expect(drained).toBe(false);
    finish();
    expect(await (await under).text()).toBe('done');
    await drain;
    expect(drained).toBe(true);
  });

  it('resolves at once when idle, and after the bound when a call never ends', async () => {
    const relay = drainable(() => new Promise<Response>(() => undefined));
    void relay.fetch(new Request('http://relay.test/v1/ping'));
    const started = Date.now();
    await relay.drain(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    await drainable(() => new Response('x')).drain(60_000);
  });
});
