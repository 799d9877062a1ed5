/**
 * The control interface from another host: a caller in a network namespace of its own (a veth pair, addresses
 * 10.213.7.1 on this side and 10.213.7.2 in the namespace, nothing else routed) reaches the emulator's API but never
 * its control interface, however the path is spelled. Needs root and iproute2 (CI has both); without them the suite
 * says why it did not run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer, type EmulatorServer } from '../../../emulator/server.ts';

const NS = `pl-ctl-${process.pid}`;
const HOST_IF = `plc${process.pid % 100000}a`;
const PEER_IF = `plc${process.pid % 100000}b`;
const HOST_ADDR = '10.213.7.1';

function whyNot(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root (network namespaces need root)';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'iproute2 or curl missing';
  }
  return undefined;
}
const skipReason = whyNot();
if (skipReason) process.stderr.write(`control-network: skipped: ${skipReason}\n`);

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

/**
 * GET or POST from inside the namespace with curl, the path sent exactly as written (`--path-as-is`). Asynchronous:
 * the emulator answers on this process's event loop.
 */
async function fromOtherHost(origin: string, path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  const { stdout: out } = await promisify(execFile)('ip', [
    'netns', 'exec', NS, 'curl', '-s', '--path-as-is', '--max-time', '5', '-X', method,
    '-w', '\n%{http_code}', `${origin}${path}`,
  ], { encoding: 'utf8' });
  const cut = out.lastIndexOf('\n');
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

describe.skipIf(skipReason !== undefined)('control interface from a non-loopback caller (network namespace)', () => {
  let server: EmulatorServer;
  let origin: string;

  beforeAll(async () => {
    ip('netns', 'add', NS);
    ip('link', 'add', HOST_IF, 'type', 'veth', 'peer', 'name', PEER_IF);
    ip('link', 'set', PEER_IF, 'netns', NS);
    ip('addr', 'add', `${HOST_ADDR}/30`, 'dev', HOST_IF);
    ip('link', 'set', HOST_IF, 'up');
    ip('netns', 'exec', NS, 'ip', 'addr', 'add', '10.213.7.2/30', 'dev', PEER_IF);
    ip('netns', 'exec', NS, 'ip', 'link', 'set', PEER_IF, 'up');
    ip('netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up');
    server = await startEmulatorServer({ port: 0, host: HOST_ADDR });
    origin = server.origin;
  });

  afterAll(async () => {
    await server?.close();
    try {
      ip('link', 'del', HOST_IF);
    } catch {
      // Already gone with the namespace.
    }
    ip('netns', 'del', NS);
  });

  it('reaches the API (the namespace is connected), so a refusal below is the guard, not the network', async () => {
    const answer = await fromOtherHost(origin, '/sandbox/v1/ping');
    expect(answer.status).toBe(403); // the gateway: no API key
    expect(answer.body).not.toContain('loopback');
  });

  it.each([
    '/_emulator/partners',
    '/%5Femulator/partners',
    '/%5femulator/partners',
    '/_emulator%2Fpartners',
    '/%5F%65mulator/partners',
    '/_emulator/usage-plans/x',
  ])('GET %s is refused without a secret in the answer', async (path) => {
    const answer = await fromOtherHost(origin, path);
    expect([403, 404]).toContain(answer.status);
    expect(answer.body).not.toMatch(/clientSecret|apiKey|client_secret/);
  });

  it('refuses the decoded spelling with the guard itself (403, not a 404 that a router change could turn into 200)', async () => {
    const answer = await fromOtherHost(origin, '/%5Femulator/partners');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('loopback callers only');
  });

  it('changes nothing through a POST with an encoded path', async () => {
    server.emulator.advanceClock(3600);
    const moved = server.emulator.now();
    expect((await fromOtherHost(origin, '/%5Femulator/reset', 'POST')).status).toBe(403);
    expect((await fromOtherHost(origin, '/_emulator/reset', 'POST')).status).toBe(403);
    // A reset would have put the clock back to the seed's start.
    expect(server.emulator.now()).toBeGreaterThanOrEqual(moved);
  });
});
