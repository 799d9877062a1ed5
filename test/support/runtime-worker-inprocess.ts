/**
 * Worker entry for the workerd runtime test: per request it creates the emulator in-process (inside the isolate)
 * and a core client whose fetch is the emulator's handler, runs the scenario and answers its JSON report.
 */
import { createEmulator } from '../../emulator/index.ts';
import { runScenario, sandboxOptions } from './runtime-scenario.ts';

/** Any origin works in-process; the emulator derives its URLs from the request. */
const origin = 'http://emulator.test';

export default {
  /**
   * @returns The scenario report as JSON (status 200 even when a step failed: the report says which).
   */
  async fetch(): Promise<Response> {
    const emu = createEmulator();
    const options = sandboxOptions(emu.partners(origin)[0], (input, init) => emu.fetch(new Request(input, init)));
    return Response.json(await runScenario(options));
  },
};
