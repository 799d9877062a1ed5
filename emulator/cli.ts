#!/usr/bin/env node
/**
 * `tsx emulator/cli.ts --port 4010 [--host 127.0.0.1] [--seed N] [--realistic-latency]`
 * Prints one line with the origin once it accepts requests; SIGINT/SIGTERM close it and exit 0.
 */
import { startEmulatorServer } from './server.ts';

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

function integer(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

try {
  const argv = process.argv.slice(2);
  const server = await startEmulatorServer({
    port: integer(option(argv, '--port'), '--port', 4010, 0, 65535),
    host: option(argv, '--host') ?? '127.0.0.1',
    seed: integer(option(argv, '--seed'), '--seed', 1, -(2 ** 31), 2 ** 31 - 1),
    realisticLatency: argv.includes('--realistic-latency'),
  });
  process.stdout.write(`Partner Learning emulator listening on ${server.origin}\n`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(`emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
