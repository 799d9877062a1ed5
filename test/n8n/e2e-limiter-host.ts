/**
 * End to end in a real n8n (each line): the credential names a limiter host (its optional Limiter Host URL and
 * Token), one workflow runs through `n8n execute`, and the host must have been asked for each API call's turn, with
 * the host's token and the API key only as its SHA-256, through n8n's own HTTP helper (`helperFetch` in
 * `nodes/PartnerLearning/transport/key-limiter.ts`: every status back as an answer, the body as text, on both lines).
 */
import { createHash } from 'node:crypto';
import { serveLimiterHost } from '../support/limiter-host.ts';
import type { LoggedRequest } from './e2e-checks.ts';

/** What the check needs from the e2e run. */
export interface LimiterHostRun {
  /** The emulator's origin (its request log). */
  origin: string;
  /** The API key of the imported credential. */
  apiKey: string;
  /** Re-imports the credential with these fields added (empty strings: no host). */
  setLimiter(fields: { limiterUrl: string; limiterToken: string }): Promise<void>;
  /** Runs one imported workflow that makes API calls; throws when the workflow failed. */
  runWorkflow(): Promise<void>;
}

/**
 * @param run How to set the credential and run the workflow.
 * @returns A one-line summary for the e2e output.
 */
export async function checkLimiterHost(run: LimiterHostRun): Promise<string> {
  const token = 'e2e-limiter-host-token';
  const host = await serveLimiterHost({ token }, true);
  try {
    await run.setLimiter({ limiterUrl: host.url, limiterToken: token });
    await fetch(`${run.origin}/_emulator/requests`, { method: 'DELETE' });
    await run.runWorkflow();
    const log = (await (await fetch(`${run.origin}/_emulator/requests`)).json()) as LoggedRequest[];
    const calls = log.filter((r) => !r.path.endsWith('/oauth2/token') && !r.path.startsWith('/_emulator'));
    const turns = host.requests.filter((r) => r.route === 'turn');
    // A call that waits in line longer than the host's hold asks again under the same ticket: one ticket per call.
    const tickets = new Set(turns.map((r) => (JSON.parse(r.body) as { ticket?: unknown }).ticket));
    const outcomes = host.requests.filter((r) => r.route === 'outcome');
    const hash = createHash('sha256').update(run.apiKey).digest('hex');
    const problems = [
      calls.length === 0 && 'the workflow made no API call',
      tickets.size !== calls.length && `${tickets.size} turns asked of the host for ${calls.length} API calls`,
      turns.some((r) => (JSON.parse(r.body) as { key?: unknown }).key !== hash) && 'a turn did not carry the API key\'s SHA-256',
      // A success is reported without holding up the call: `n8n execute` may exit before the last report is out.
      outcomes.length < tickets.size - 1 && `${outcomes.length} outcomes reported for ${tickets.size} turns`,
      host.requests.some((r) => r.authorization !== `Bearer ${token}`) && 'a request to the host without its token',
      host.requests.some((r) => r.body.includes(run.apiKey)) && 'the API key in clear in a request to the host',
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`limiter host: ${problems.join('; ')}`);
    return `${calls.length} API calls, ${tickets.size} turns, ${outcomes.length} outcomes at the host`;
  } finally {
    await run.setLimiter({ limiterUrl: '', limiterToken: '' }).catch(() => undefined);
    await host.close();
  }
}
