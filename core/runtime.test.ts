import { describe, it, expect } from 'vitest';
import { checkSignal, defaultSleep, isAbortSignal, raceAbort } from './runtime.ts';
import { ConfigurationError } from './errors/index.ts';

describe('runtime', () => {
  it('tells AbortSignals from look-alikes', () => {
    expect(isAbortSignal(new AbortController().signal)).toBe(true);
    expect(isAbortSignal({})).toBe(false);
    expect(isAbortSignal(null)).toBe(false);
    expect(checkSignal(undefined)).toBeUndefined();
    expect(() => checkSignal({})).toThrow(ConfigurationError);
  });

  it('defaultSleep rejects a bad signal without leaving a timer behind that could throw', async () => {
    await expect(defaultSleep(1, {} as AbortSignal)).rejects.toBeInstanceOf(ConfigurationError);
    // A timer left behind would throw on its own stack (an uncaught exception that fails this run).
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('raceAbort stops waiting on abort and leaves the promise running', async () => {
    const controller = new AbortController();
    let finish = (): void => undefined;
    const work = new Promise<string>((resolve) => { finish = () => resolve('done'); });
    const raced = raceAbort(work, controller.signal);
    controller.abort(new Error('stop'));
    await expect(raced).rejects.toThrow('stop');
    finish();
    await expect(work).resolves.toBe('done');
  });
});
