/**
 * End to end: n8n's own credential test (`POST /rest/credentials/test`, what the editor's "Retry"/"Save" runs) against
 * the emulator, on a running n8n of the line under test. Each broken credential must come back as a sentence naming
 * the wrong part, with no secret in it. Called by scripts/n8n-e2e.ts with its user folder (package installed).
 */
import { spawn } from 'node:child_process';
import { freePort } from '../support/free-port.ts';

/** One environment of the emulator's first partner (`GET /_emulator/partners`). */
export interface EnvironmentInfo {
  tokenUrl: string;
  baseUrl: string;
  apiKey: string;
  clients: Array<{ clientId: string; clientSecret: string; scopes: string[] }>;
}

interface Case {
  name: string;
  data: Record<string, string>;
  /** The status n8n reports, and what its message must say. */
  expect: { status: 'OK' } | { status: 'Error'; message: RegExp };
  /** Why n8n 1.x shows something else (its own text), when it does: the line says so instead of passing quietly. */
  onLine1?: { message: RegExp; why: string };
}

function cases(sandbox: EnvironmentInfo, production: EnvironmentInfo, closedPort: number): Case[] {
  const readWrite = sandbox.clients.find((c) => c.scopes.some((s) => s.endsWith('/write')))!;
  const readOnly = sandbox.clients.find((c) => !c.scopes.some((s) => s.endsWith('/write')))!;
  const good = {
    tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: readWrite.clientId,
    clientSecret: readWrite.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite',
  };
  const wrongPort = new URL(sandbox.tokenUrl);
  wrongPort.port = String(closedPort);
  return [
    { name: 'a working credential', data: good, expect: { status: 'OK' } },
    {
      name: 'API key and client secret swapped', data: { ...good, clientSecret: good.apiKey, apiKey: good.clientSecret },
      expect: { status: 'Error', message: /rejected the Client ID or Client Secret.*API Key was not pasted into Client Secret/ },
    },
    {
      name: 'token URL typo', data: { ...good, tokenUrl: good.tokenUrl.replace('/oauth2/token', '/oauth2/tokne') },
      expect: { status: 'Error', message: /^The Token URL does not lead to a token endpoint \(HTTP 404\)/ },
    },
    {
      name: 'Read and Write for a read-only client',
      data: { ...good, clientId: readOnly.clientId, clientSecret: readOnly.clientSecret },
      expect: { status: 'Error', message: /may only read.*Set Scope to Read Only/ },
    },
    {
      name: 'unreachable token host (wrong port)', data: { ...good, tokenUrl: wrongPort.toString() },
      expect: { status: 'Error', message: new RegExp(`^Nothing answered at the Token URL's host and port \\(127\\.0\\.0\\.1:${closedPort}: connection refused\\)`) },
    },
    {
      name: 'sandbox token URL with the production base URL', data: { ...good, baseUrl: production.baseUrl },
      expect: { status: 'Error', message: /same environment \(sandbox or production\)|environment the Base URL belongs to/ },
      // n8n 1.x drops the HTTP answer that the credential test's 403 rule reads, and shows its own text instead.
      onLine1: { message: /Forbidden|check your credentials/i, why: 'known 1.x limit: n8n 1.x drops the answer the test rules read (nodes/README)' },
    },
  ];
}

/**
 * Starts n8n, sets up its owner, runs every case through the REST credential test, stops n8n.
 *
 * @returns One line per case; throws listing every case that failed.
 */
export async function runCredentialTests(init: {
  n8nBin: string; env: NodeJS.ProcessEnv; cwd: string; sandbox: EnvironmentInfo; production: EnvironmentInfo;
  /** An imported credential of this type: n8n 2.x tests edits of a stored credential only (else 403). */
  credentialId: string;
  /** The n8n version under test (`1.x` lines show their own text where `onLine1` says so). */
  version: string;
}): Promise<string[]> {
  const port = await freePort();
  const closedPort = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(init.n8nBin, ['start'], {
    cwd: init.cwd, stdio: 'ignore',
    env: { ...init.env, N8N_PORT: String(port), N8N_LISTEN_ADDRESS: '127.0.0.1', N8N_SECURE_COOKIE: 'false', N8N_RUNNERS_ENABLED: 'false' },
  });
  try {
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`n8n start exited with ${child.exitCode}`);
      const ready = await fetch(`${origin}/healthz/readiness`).then((r) => r.ok, () => false);
      if (ready) break;
      if (tries > 240) throw new Error('n8n did not become ready within about 2 minutes');
      await new Promise((done) => { setTimeout(done, 500); });
    }
    const headers = { 'content-type': 'application/json', 'browser-id': 'partner-learning-e2e' };
    // n8n answers readiness once its database is migrated, before its REST routes exist (1.x): 404 means not yet.
    let setup: Response;
    for (let tries = 0; ; tries++) {
      setup = await fetch(`${origin}/rest/owner/setup`, {
        method: 'POST', headers,
        body: JSON.stringify({ email: 'owner@example.test', firstName: 'E2e', lastName: 'Owner', password: 'E2e-password-1' }),
      });
      if (setup.status !== 404 || tries > 240) break;
      await new Promise((done) => { setTimeout(done, 500); });
    }
    if (!setup.ok) throw new Error(`owner setup answered ${setup.status}: ${await setup.text()}`);
    const cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0]!;
    const lines: string[] = [];
    const failed: string[] = [];
    for (const c of cases(init.sandbox, init.production, closedPort)) {
      const answer = await fetch(`${origin}/rest/credentials/test`, {
        method: 'POST', headers: { ...headers, cookie },
        body: JSON.stringify({ credentials: { id: init.credentialId, name: 'e2e', type: 'partnerLearningApi', data: c.data } }),
      });
      const text = await answer.text();
      const result = (JSON.parse(text) as { data?: { status?: string; message?: string } }).data ?? {};
      const secrets = [c.data.clientSecret!, c.data.apiKey!];
      const leaked = secrets.some((secret) => text.includes(secret));
      const line1 = init.version.startsWith('1.') ? c.onLine1 : undefined;
      const expected = line1 ? { status: 'Error' as const, message: line1.message } : c.expect;
      const ok = !leaked && result.status === expected.status
        && (expected.status === 'OK' || expected.message.test(result.message ?? ''));
      const line = `${c.name}: ${result.status ?? answer.status} "${result.message ?? text.slice(0, 200)}"${leaked ? ' (LEAKS A SECRET)' : ''}${line1 ? ` (${line1.why})` : ''}`;
      lines.push(`${ok ? '✓' : '✗'} credential test, ${line}`);
      if (!ok) failed.push(line);
    }
    if (failed.length > 0) throw Object.assign(new Error(`credential test: ${failed.length} case(s) failed:\n${lines.join('\n')}`), { lines });
    return lines;
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => { if (child.exitCode !== null) done(undefined); else child.once('exit', done); });
  }
}
