/**
 * `npm start` as a user meets it: spawned on real ports, its output read. Covers the emulator mode, `--port 0`, a
 * busy port, Ctrl+C (also while the relay is still starting), and running against a service named by
 * PARTNER_LEARNING_* variables.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulatorServer } from '../../emulator/server.ts';
import { assertPortsFree, portsFrom } from '../../scripts/start-options.ts';
import { emulatorEnv, runStart, spawnStart } from './stack-process.ts';
import type { RunningStack } from './stack-process.ts';

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), answer(true)));
    socket.once('error', () => answer(false));
  });
}

/** The processes whose command line contains `text` (from /proc: no procps needed). */
function processesMatching(text: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** A `--port` whose three ports (emulator, relay, page) are free, as `npm start` checks them. */
async function freeBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    if (await assertPortsFree(portsFrom(base)).then(() => true, () => false)) return base;
  }
}

let running: RunningStack | undefined;
afterEach(async () => {
  await running?.interrupt();
  running = undefined;
});

describe('npm start', () => {
  it('with no PARTNER_LEARNING_* variables runs emulator, relay and demo page, prints a relay key and a .env block, and stops on Ctrl+C with 0', async () => {
    running = await runStart(['--port', '0'], emulatorEnv());
    const out = running.stdout();
    const [emulator, relay, page] = ['emulator', 'relay', 'demo page'].map((part) => running!.origin(part));
    expect(emulator).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(relay).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set([emulator, relay, page]).size).toBe(3);

    // The .env block: KEY=value lines only, one with the relay key, pasteable into a shell.
    const block = out.slice(out.indexOf('Ready .env block'));
    const envLines = block.split('\n').slice(1, block.split('\n').findIndex((l, i) => i > 0 && l.trim() === ''));
    expect(envLines.length).toBeGreaterThanOrEqual(8);
    for (const line of envLines) expect(line).toMatch(/^[A-Z][A-Z0-9_]*=[^\s'"`$;&|<>]+$/);
    const env = Object.fromEntries(envLines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    const key = /Relay key[^:]*: (\S+)/.exec(out)?.[1];
    expect(key).toBeDefined();
    expect(env.RELAY_KEYS).toBe(key);
    expect(env.PARTNER_LEARNING_BASE_URL).toBe(`${emulator}/sandbox/v1`);
    expect(env.ALLOWED_ORIGINS?.split(',')).toContain(page);

    // Each part answers: the relay with the printed key reaches the emulated service; the page's backend mints.
    expect((await fetch(`${emulator}/sandbox/v1/ping`, { headers: { 'x-api-key': env.PARTNER_LEARNING_API_KEY! } })).status).toBe(200);
    const ping = await fetch(`${relay}/v1/ping`, { headers: { 'x-relay-key': key! } });
    expect(ping.status).toBe(200);
    expect((await fetch(`${relay}/v1/ping`)).status).toBe(401);
    const html = await fetch(`${page}/`);
    expect(html.headers.get('content-type')).toContain('text/html');
    const session = await fetch(`${page}/api/session`, { method: 'POST' });
    expect(session.status).toBe(200);
    const sessionText = await session.text();
    expect(JSON.parse(sessionText)).toMatchObject({ token: expect.any(String), relay });
    expect(sessionText).not.toContain(key);

    expect(await running.interrupt()).toBe(0);
    await expect(fetch(`${relay}/v1/ping`)).rejects.toThrow();
    await expect(fetch(`${page}/`)).rejects.toThrow();
    await expect(fetch(`${emulator}/sandbox/v1/ping`)).rejects.toThrow();
  });

  it('names a busy port and --port 0 in one line, without a stack trace', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen({ port: 0, host: '127.0.0.1' }, done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      running = await runStart(['--port', String(port)], emulatorEnv());
      expect(await running.exited).toBe(1);
      const lines = running.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(String(port));
      expect(lines[0]).toContain('--port 0');
      expect(running.stderr()).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });

  it('Ctrl+C while the relay is still starting stops it too: nothing is left on its port', async () => {
    const base = await freeBase();
    const { relay } = portsFrom(base);
    running = spawnStart(['--port', String(base)], emulatorEnv());
    try {
      // The relay takes seconds from its spawn (`npm run relay`) to its origin line: Ctrl+C in between.
      while (processesMatching(`scripts/relay.ts --port ${relay}`).length === 0) await sleep(20);
      expect(await listening(relay)).toBe(false);
      expect(await running.interrupt()).toBe(0);
      // A relay left running would come up on its port within seconds (before, its workerd did, and held it).
      for (let i = 0; i < 12; i++) {
        expect(await listening(relay)).toBe(false);
        await sleep(500);
      }
    } finally {
      // Whatever is left of the relay (npm, its script and workerd) goes, so a failure here does not hold the port.
      for (const text of [`relay.ts --port ${relay}`, `entry=127.0.0.1:${relay}`]) {
        for (const pid of processesMatching(text)) process.kill(pid, 'SIGKILL');
      }
    }
  });

  it('refuses a malformed --port and a partial set of PARTNER_LEARNING_* variables, each in one line', async () => {
    running = await runStart(['--port', 'eighty'], emulatorEnv());
    expect(await running.exited).toBe(1);
    expect(running.stderr().trim()).toBe('--port must be an integer from 0 to 65533 (the relay and the demo page take the next two), got "eighty"');
    running = await runStart(['--port', '0'], { ...emulatorEnv(), PARTNER_LEARNING_CLIENT_ID: 'someone' });
    expect(await running.exited).toBe(1);
    const message = running.stderr().trim();
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PARTNER_LEARNING_CLIENT_SECRET');
    expect(message).not.toContain('someone');
  });

  it('with PARTNER_LEARNING_* set runs relay and page against that service and prints none of its credentials', async () => {
    const service = await startEmulatorServer({ port: 0 });
    try {
      const sandbox = service.emulator.partners(service.origin)[0]!.environments.sandbox;
      const client = sandbox.clients.find((c) => c.scopes.includes('partner-api/write'))!;
      const secrets = { PARTNER_LEARNING_CLIENT_SECRET: client.clientSecret, PARTNER_LEARNING_API_KEY: sandbox.apiKey };
      running = await runStart(['--port', '0'], {
        ...emulatorEnv(),
        PARTNER_LEARNING_TOKEN_URL: sandbox.tokenUrl,
        PARTNER_LEARNING_BASE_URL: sandbox.baseUrl,
        PARTNER_LEARNING_CLIENT_ID: client.clientId,
        ...secrets,
      });
      expect(running.origin('emulator')).toBeUndefined();
      const page = running.origin('demo page');
      expect(running.origin('relay')).toBeDefined();
      for (const secret of Object.values(secrets)) expect(running.stdout() + running.stderr()).not.toContain(secret);
      // The page's backend reaches that service through the relay: registering the demo learner lands there.
      expect((await fetch(`${page}/api/session`, { method: 'POST' })).status).toBe(200);
      const log = await (await fetch(`${service.origin}/_emulator/requests`)).text();
      expect(log).toContain('/users/register');
      expect(await running.interrupt()).toBe(0);
    } finally {
      await service.close();
    }
  });
});
