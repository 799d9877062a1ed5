/**
 * `npm run relay -- --port N`: serves the edge relay in workerd (Miniflare) on 127.0.0.1:N with a local KV namespace,
 * configured from the environment variables of the relay contract, its KV kept on disk under .wrangler/state. Prints one line with its origin once it accepts
 * requests (`--port 0` picks a free port); refuses to start, naming the setting, when one is missing or malformed;
 * exits 0 on SIGINT/SIGTERM.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relaySettingsProblems } from '../edge/app.ts';
import { relaySettingsFrom, startRelayWorker } from './relay-worker.ts';

function portArgument(argv: string[]): number {
  const index = argv.indexOf('--port');
  const inline = argv.find((a) => a.startsWith('--port='));
  const raw = inline ? inline.slice('--port='.length) : index >= 0 ? argv[index + 1] : '8787';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`relay: --port must be a whole number from 0 to 65535 (got ${String(raw)})`);
    process.exit(2);
  }
  return port;
}

const port = portArgument(process.argv.slice(2));
const settings = relaySettingsFrom(process.env);
const problems = relaySettingsProblems(settings);
if (problems.length > 0) {
  console.error(`relay: not starting, the configuration is incomplete:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}

// KV on disk, as `wrangler dev` keeps it: a restart finds the token the last run fetched (RELAY_KV_DIR moves it).
const kvPersist = process.env['RELAY_KV_DIR'] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '.wrangler', 'state', 'relay-kv');
const relay = await startRelayWorker({ settings, port, kvPersist });
console.log(`relay listening on ${relay.origin}`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  relay.dispose().then(() => process.exit(0), () => process.exit(0));
};
// Miniflare installs exit hooks that end the process with 128+signal; ours disposes workerd and exits 0 instead.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.removeAllListeners(signal);
  process.once(signal, stop);
}
