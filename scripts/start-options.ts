/**
 * `npm start`'s inputs: the `--port` flag, which service to run against (the emulator, or the one the
 * PARTNER_LEARNING_* variables name), and the check that the fixed ports are free before anything starts.
 */
import { createServer } from 'node:net';

/** The three parts of the stack, in the order their ports are numbered from `--port`. */
export const parts = ['emulator', 'relay', 'demo page'] as const;
export type Part = (typeof parts)[number];

/** A bad flag or a busy port: the message is printed as one line, with no stack trace. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

/**
 * @param argv the arguments after the script name.
 * @param env the environment (`PORT` is read when there is no flag).
 * @returns the base port: the emulator listens on it, the relay on +1, the demo page on +2; 0 picks free ports.
 * @throws StartError when the port is not an integer from 0 to 65533.
 */
export function basePort(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  const raw = i < 0 ? (env.PORT ?? '4010') : argv[i]!.includes('=') ? argv[i]!.slice('--port='.length) : argv[i + 1];
  const port = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65533) {
    throw new StartError(`--port must be an integer from 0 to 65533 (the relay and the demo page take the next two), got "${raw ?? ''}"`);
  }
  return port;
}

/** @returns the port of each part (all 0 when the base is 0). */
export function portsFrom(base: number): Record<Part, number> {
  const at = (n: number) => (base === 0 ? 0 : base + n);
  return { emulator: at(0), relay: at(1), 'demo page': at(2) };
}

/** The service settings the relay needs, as PARTNER_LEARNING_* variables. */
export const serviceVariables = ['PARTNER_LEARNING_TOKEN_URL', 'PARTNER_LEARNING_BASE_URL', 'PARTNER_LEARNING_CLIENT_ID', 'PARTNER_LEARNING_CLIENT_SECRET', 'PARTNER_LEARNING_API_KEY'] as const;

/** @returns true when any PARTNER_LEARNING_* variable is set: then the stack runs against that service. */
export function usesRealService(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(env).some((k) => k.startsWith('PARTNER_LEARNING_') && (env[k] ?? '') !== '');
}

/**
 * @returns the PARTNER_LEARNING_* variables that are needed but unset (names only).
 */
export function missingServiceVariables(env: NodeJS.ProcessEnv): string[] {
  return serviceVariables.filter((k) => !env[k]);
}

function probe(port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/**
 * Checks that each fixed port can be bound on 127.0.0.1, so a busy one is reported before anything starts.
 * @param wanted the parts to check with their ports (0 is never busy).
 * @throws StartError naming the first busy port, its part and `--port 0`.
 */
export async function assertPortsFree(wanted: Partial<Record<Part, number>>): Promise<void> {
  for (const [part, port] of Object.entries(wanted) as Array<[Part, number]>) {
    if (port === 0) continue;
    const error = await probe(port);
    if (error?.code === 'EADDRINUSE') throw new StartError(`Port ${port} (${part}) is already in use: stop whatever uses it, or run "npm start -- --port 0" to pick free ports.`);
    if (error) throw new StartError(`Cannot listen on 127.0.0.1:${port} (${part}): ${error.code ?? error.message}. Try "npm start -- --port 0".`);
  }
}

/** @returns a random URL-safe secret of `bytes` random bytes (relay keys, the learner-token secret). */
export function randomSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}
