import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer } from './server.ts';
import type { EmulatorServer } from './server.ts';

describe('startEmulatorServer', () => {
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('listens on a free loopback port and serves the control interface', async () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const partners = (await (await fetch(`${server.origin}/_emulator/partners`)).json()) as { environments: { sandbox: { baseUrl: string } } }[];
    expect(partners[0]?.environments.sandbox.baseUrl).toBe(`${server.origin}/sandbox/v1`);
  });

  it('drops the connection for a status-0 fault', async () => {
    await fetch(`${server.origin}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ rate: 1, statuses: [0] }) });
    const apiKey = server.emulator.partners(server.origin)[0]?.environments.sandbox.apiKey ?? '';
    await expect(fetch(`${server.origin}/sandbox/v1/ping`, { headers: { 'x-api-key': apiKey } })).rejects.toThrow(TypeError);
    await fetch(`${server.origin}/_emulator/faults`, { method: 'DELETE' });
    expect((await fetch(`${server.origin}/sandbox/v1/ping`, { headers: { 'x-api-key': apiKey } })).status).toBe(200);
  });
});
