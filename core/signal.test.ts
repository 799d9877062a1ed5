import { describe, it, expect } from 'vitest';
import { checkSignal, isAbortSignal, raceAbort } from './signal.ts';
import { ConfigurationError } from './errors/index.ts';

describe('signals', () => {
  it('tells AbortSignals from look-alikes', () => {
    expect(isAbortSignal(new AbortController().signal)).toBe(true);
    expect(isAbortSignal(AbortSignal.timeout(1000))).toBe(true);
    expect(isAbortSignal({})).toBe(false);
    expect(isAbortSignal(null)).toBe(false);
    expect(checkSignal(undefined)).toBeUndefined();
    expect(() => checkSignal({})).toThrow(ConfigurationError);
  });

  it('refuses a duck-typed signal (it could never abort the request) and accepts a real one made elsewhere', () => {
    const fake = { aborted: false, reason: undefined, addEventListener: () => undefined, removeEventListener: () => undefined };
    expect(isAbortSignal(fake)).toBe(false);
    expect(() => checkSignal(fake)).toThrow(ConfigurationError);
    // A genuine signal whose prototype chain was cut (as across realms) still carries the platform's brand.
    const signal = new AbortController().signal;
    Object.setPrototypeOf(signal, null);
    expect(isAbortSignal(signal)).toBe(true);
    // A look-alike that inherits from AbortSignal.prototype has no brand.
    expect(isAbortSignal(Object.create(AbortSignal.prototype))).toBe(false);
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
