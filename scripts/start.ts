/**
 * `npm start`: the local stack for a newcomer with no credentials. For now that is the emulator; it prints where
 * it listens and one partner's demo credentials (fake, local, safe to show) so curl or the client can be used at once.
 */
import { startEmulatorServer } from '../emulator/server.ts';

function portFromArgs(argv: string[]): number {
  const i = argv.indexOf('--port');
  const raw = i >= 0 ? argv[i + 1] : process.env.PORT;
  const port = raw === undefined ? 4010 : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

const server = await startEmulatorServer({ port: portFromArgs(process.argv.slice(2)) });
const partner = server.emulator.partners(server.origin)[0];
const sandbox = partner?.environments.sandbox;
const client = sandbox?.clients[0];
const out = process.stdout;
out.write(`Partner Learning emulator listening on ${server.origin}\n\n`);
if (partner && sandbox && client) {
  out.write(`Demo partner: ${partner.name} (sandbox, local and fake: safe to share)\n`);
  out.write(`  PARTNER_LEARNING_TOKEN_URL=${sandbox.tokenUrl}\n`);
  out.write(`  PARTNER_LEARNING_BASE_URL=${sandbox.baseUrl}\n`);
  out.write(`  PARTNER_LEARNING_CLIENT_ID=${client.clientId}\n`);
  out.write(`  PARTNER_LEARNING_CLIENT_SECRET=${client.clientSecret}\n`);
  out.write(`  PARTNER_LEARNING_API_KEY=${sandbox.apiKey}\n`);
  out.write(`  scopes: ${client.scopes.join(' ')}\n\n`);
}
out.write(`Every partner and client: ${server.origin}/_emulator/partners\nStop with Ctrl+C.\n`);

const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
