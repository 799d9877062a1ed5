/**
 * Deno entry for the runtime test. Without arguments it runs the scenario against the emulator in-process (inside
 * Deno); with an origin argument it runs it against an emulator listening there (reading the credentials from
 * `GET /_emulator/partners`). Prints the report as one JSON line on stdout.
 */
import { createEmulator } from '../../emulator/index.ts';
import { runScenario, sandboxOptions, type PartnerCredentials } from './runtime-scenario.ts';

// Typed locally so the repository's Node-typed tsc run needs no Deno type package.
const deno = (globalThis as unknown as { Deno: { args: string[]; exit(code: number): never } }).Deno;
const remote = deno.args[0];

let options;
if (remote) {
  const partners = (await (await fetch(`${remote}/_emulator/partners`)).json()) as PartnerCredentials[];
  options = sandboxOptions(partners[0], (input, init) => fetch(input, init));
} else {
  const emu = createEmulator();
  options = sandboxOptions(emu.partners('http://emulator.test')[0], (input, init) => emu.fetch(new Request(input, init)));
}
const report = await runScenario(options);
console.log(JSON.stringify(report));
// Exit explicitly: a timer left by the client or emulator must not keep the test waiting.
deno.exit(0);
