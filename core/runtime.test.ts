import { describe, it, expect } from 'vitest';
import { defaultSleep } from './runtime.ts';
import { ConfigurationError } from './errors/index.ts';

describe('runtime', () => {
  it('defaultSleep rejects a bad signal without leaving a timer behind that could throw', async () => {
    await expect(defaultSleep(1, {} as AbortSignal)).rejects.toBeInstanceOf(ConfigurationError);
    // A timer left behind would throw on its own stack (an uncaught exception that fails this run).
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('defaultSleep resolves after the delay and rejects with the reason on abort', async () => {
    await expect(defaultSleep(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    const sleeping = defaultSleep(60_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(sleeping).rejects.toThrow('cancelled');
  });
});
