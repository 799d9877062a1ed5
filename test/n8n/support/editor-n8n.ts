/**
 * A running `n8n start` for the editor test: loopback port, the caller's user folder (package already installed),
 * owner set up through REST. The browser then signs in with the owner's e-mail and password.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../support/free-port.ts';

export const OWNER = { email: 'owner@example.test', firstName: 'E2e', lastName: 'Owner', password: 'E2e-password-1' };

export interface RunningN8n {
  origin: string;
  stop(): Promise<void>;
}

const pause = (ms: number) => new Promise((done) => { setTimeout(done, ms); });

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((done) => { child.once('exit', done); });
}

async function signsIn(origin: string): Promise<boolean> {
  const login = await fetch(`${origin}/rest/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'browser-id': 'partner-learning-editor' },
    body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
  });
  return login.ok;
}

/** Starts n8n and sets up its owner; throws (and stops n8n) when either does not happen within about 2 minutes. */
export async function startN8n(init: { n8nBin: string; env: NodeJS.ProcessEnv; cwd: string }): Promise<RunningN8n> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(init.n8nBin, ['start'], {
    cwd: init.cwd, stdio: 'ignore',
    env: {
      ...init.env, N8N_PORT: String(port), N8N_LISTEN_ADDRESS: '127.0.0.1', N8N_SECURE_COOKIE: 'false',
      N8N_RUNNERS_ENABLED: 'false', N8N_EDITOR_BASE_URL: origin,
      // No onboarding survey, no personalisation prompts: they would cover the canvas.
      N8N_PERSONALIZATION_ENABLED: 'false', N8N_TEMPLATES_ENABLED: 'false', N8N_HIRING_BANNER_ENABLED: 'false',
    },
  });
  try {
    // Polls (n8n has no "ready" signal on its output): readiness first, then the owner route (1.x: 404 until its
    // REST routes exist).
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`n8n start exited with ${child.exitCode}`);
      if (await fetch(`${origin}/healthz/readiness`).then((r) => r.ok, () => false)) break;
      if (tries > 240) throw new Error('n8n did not become ready within about 2 minutes');
      await pause(500);
    }
    for (let tries = 0; ; tries++) {
      const setup = await fetch(`${origin}/rest/owner/setup`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'browser-id': 'partner-learning-editor' },
        body: JSON.stringify(OWNER),
      });
      if (setup.ok) break;
      // An owner set up by an earlier run in the same user folder (scripts/n8n-e2e.ts's credential test): n8n
      // answers 400; the same e-mail and password then sign in.
      if (setup.status === 400 && await signsIn(origin)) break;
      if (setup.status !== 404 || tries > 240) throw new Error(`owner setup answered ${setup.status}: ${await setup.text()}`);
      await pause(500);
    }
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { origin, stop: () => stop(child) };
}
