/**
 * Cloudflare Workers (workerd) entry: the same app, state kept in the isolate's memory.
 * Created on the first request, because outside a request workerd's clock reads 1970.
 */
import { createEmulator } from './index.ts';
import type { Emulator } from './index.ts';

let emulator: Emulator | undefined;

/** The module worker: one emulator per isolate. */
export default {
  /**
   * @param request the incoming request.
   * @returns the emulator's response (a status-0 fault rejects, which workerd reports as a failed request).
   */
  fetch(request: Request): Promise<Response> {
    emulator ??= createEmulator();
    return emulator.fetch(request);
  },
};
