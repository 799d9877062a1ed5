/**
 * An emulator inside the benchmark process, with a fetch adapter for the client and a generous usage plan.
 */
import { createEmulator, type Emulator } from '../emulator/index.ts';
import { generousPlan, putUsagePlan, sandboxOf, type Partner } from './support.ts';

/** Any origin works in-process; the emulator derives its URLs from the request. */
export const inProcessOrigin = 'http://emulator.test';

export interface InProcessEmulator {
  emu: Emulator;
  partner: Partner | undefined;
  /** `fetch` that hands the request straight to the emulator. */
  fetch: typeof fetch;
}

/**
 * Creates an emulator with its own seed (so its API key, and the client's per-key limiter, are its own) and lifts
 * the usage plan out of the way.
 *
 * @param seed - Emulator seed; use a different one per benchmark.
 * @returns The emulator, its first partner and a fetch adapter.
 */
export async function inProcessEmulator(seed: number): Promise<InProcessEmulator> {
  const emu = createEmulator({ seed });
  // ky hands over a finished Request (plus an empty init): pass it through rather than copying it, as a real fetch
  // would not copy it either, so the overhead benchmark measures the client and not this adapter.
  const fetchImpl: typeof fetch = (input, init) =>
    emu.fetch(input instanceof Request && (init === undefined || Object.keys(init).length === 0) ? input : new Request(input, init));
  const partner = emu.partners(inProcessOrigin)[0] as Partner | undefined;
  await putUsagePlan(fetchImpl, inProcessOrigin, sandboxOf(partner).apiKey, generousPlan);
  return { emu, partner, fetch: fetchImpl };
}
