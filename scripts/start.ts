/**
 * `npm start`: the local stack in one command. With no PARTNER_LEARNING_* variables it runs the emulator, the relay
 * (in workerd, `npm run relay`) wired to the emulator's first partner (sandbox, read-write client) and the demo
 * partner page, then prints each origin on a line naming its part, a relay key and a ready `.env` block. With the
 * variables set it runs the relay and the page against that service and prints no credential. `--port N` puts the
 * emulator on N, the relay on N+1 and the page on N+2; `--port 0` picks free ports. Ctrl+C stops everything.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulatorServer } from '../emulator/server.ts';
import type { EmulatorServer } from '../emulator/server.ts';
import { startPartnerSite } from '../examples/partner-site/server.ts';
import type { PartnerSiteServer } from '../examples/partner-site/server.ts';
import { assertPortsFree, basePort, missingServiceVariables, portsFrom, randomSecret, StartError, usesRealService } from './start-options.ts';
import { startRelay } from './start-relay.ts';
import type { RelayProcess } from './start-relay.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = (line = '') => process.stdout.write(`${line}\n`);
let emulator: EmulatorServer | undefined;
let site: PartnerSiteServer | undefined;
let relay: RelayProcess | undefined;
/** The relay's start while it runs: Ctrl+C then stops the relay through `starting` and waits for that. */
let relayStart: Promise<RelayProcess> | undefined;
const starting = new AbortController();
let stopping = false;

async function stopAll(code: number): Promise<void> {
  // Ctrl+C reaches this process twice under npm (from the terminal and forwarded by npm): stop once.
  if (stopping) return;
  stopping = true;
  starting.abort();
  await Promise.allSettled([relay?.stop(), relayStart, site?.close(), emulator?.close()]);
  process.exit(code);
}

/** The emulator's first partner, sandbox, the client that may read and write. */
function emulatedService(server: EmulatorServer): Record<string, string> {
  const sandbox = server.emulator.partners(server.origin)[0]?.environments.sandbox;
  const client = sandbox?.clients.find((c) => c.scopes.includes('partner-api/write')) ?? sandbox?.clients[0];
  if (!sandbox || !client) throw new StartError('The emulator lists no sandbox partner with a client.');
  return {
    PARTNER_LEARNING_TOKEN_URL: sandbox.tokenUrl,
    PARTNER_LEARNING_BASE_URL: sandbox.baseUrl,
    PARTNER_LEARNING_CLIENT_ID: client.clientId,
    PARTNER_LEARNING_CLIENT_SECRET: client.clientSecret,
    PARTNER_LEARNING_API_KEY: sandbox.apiKey,
  };
}

async function main(): Promise<void> {
  const real = usesRealService(process.env);
  const ports = portsFrom(basePort(process.argv.slice(2), process.env));
  if (real) {
    const missing = missingServiceVariables(process.env);
    if (missing.length) throw new StartError(`Some PARTNER_LEARNING_* variables are set but not ${missing.join(', ')}: set them all, or none to run against the emulator.`);
  }
  await assertPortsFree(real ? { relay: ports.relay, 'demo page': ports['demo page'] } : ports);

  if (!real) emulator = await startEmulatorServer({ port: ports.emulator });
  site = await startPartnerSite({ port: ports['demo page'] });
  const service = emulator ? emulatedService(emulator) : {};
  const relayKey = process.env.RELAY_KEYS?.split(',')[0]?.trim() || randomSecret();
  const pageOrigins = [site.origin, site.origin.replace('127.0.0.1', 'localhost')].join(',');
  const relayEnv = {
    ...service,
    RELAY_KEYS: process.env.RELAY_KEYS || relayKey,
    LEARNER_TOKEN_SECRET: process.env.LEARNER_TOKEN_SECRET || randomSecret(),
    ALLOWED_ORIGINS: [process.env.ALLOWED_ORIGINS, pageOrigins].filter(Boolean).join(','),
    // Locally the interactive API reference is on (a production relay has it off unless configured).
    RELAY_API_REFERENCE: process.env.RELAY_API_REFERENCE ?? 'on',
  };
  relayStart = startRelay(ports.relay, { ...process.env, ...relayEnv }, root, starting.signal);
  relay = await relayStart;
  if (stopping) return;
  site.setRelay({ origin: relay.origin, key: relayKey });

  out(real ? 'Partner Learning local stack, against the service your PARTNER_LEARNING_* variables name:' : 'Partner Learning local stack (emulated service: every credential below is local and fake):');
  if (emulator) out(`  emulator:  ${emulator.origin}`);
  out(`  relay:     ${relay.origin}`);
  if (/^(on|true|1|yes)$/i.test(relayEnv.RELAY_API_REFERENCE.trim())) out(`  API reference: ${relay.origin}/v1/reference`);
  out(`  demo page: ${site.origin}/`);
  out();
  if (real) {
    out('The relay key and secrets stay in this process (set RELAY_KEYS to choose the key your backend presents).');
  } else {
    out(`Relay key (a partner backend sends it as X-Relay-Key): ${relayKey}`);
    out();
    out('Ready .env block (the relay reads these; RELAY_URL and RELAY_KEY are for a partner backend):');
    for (const [k, v] of Object.entries({ ...relayEnv, RELAY_URL: relay.origin, RELAY_KEY: relayKey })) out(`${k}=${v}`);
  }
  if (emulator) out(`\nEvery emulated partner and client: ${emulator.origin}/_emulator/partners`);
  out();
  out('Stop with Ctrl+C.');
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
main().catch(async (error: unknown) => {
  // Stopped by Ctrl+C while starting: stopAll is already under way, and nothing failed.
  if (stopping) return;
  const message = error instanceof StartError ? error.message : `npm start failed: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  await stopAll(1);
});
