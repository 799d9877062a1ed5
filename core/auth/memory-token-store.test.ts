import { describe, it, expect, vi } from 'vitest';

describe('defaultTokenStore', () => {
  it('is one store for every copy of the module in the process (the ESM and CommonJS builds)', async () => {
    const first = await import('./memory-token-store.ts');
    vi.resetModules();
    const second = await import('./memory-token-store.ts');
    expect(second.MemoryTokenStore).not.toBe(first.MemoryTokenStore); // really another copy of the module
    expect(second.defaultTokenStore).toBe(first.defaultTokenStore);
  });
});
