/**
 * End-to-end proof that n8n fetches a fresh token after a 401 (the credential's `preAuthentication`) on every n8n
 * line: the emulator's clock moves past the stored token's expiry, one workflow runs, and the emulator's request log
 * must read: the API request answered 401, exactly one token request, then the same API request answered 2xx.
 * (n8n 1.x took any `ignoreHttpStatusErrors` as "accept every status" and handed the 401 to the node instead.)
 */

/** One line of the emulator's request log (`GET /_emulator/requests`). */
interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/**
 * @param origin The emulator's origin.
 * @param runWorkflow Runs one workflow that makes at least one API call with the stored credential.
 * @returns A one-line summary of the log, for the e2e output.
 */
export async function checkTokenRefreshAfter401(origin: string, runWorkflow: () => Promise<void>): Promise<string> {
  // The token n8n stored earlier expires after 1 h of emulator time.
  const advanced = await fetch(`${origin}/_emulator/clock`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 2 * 3600 }),
  });
  if (!advanced.ok) throw new Error(`the emulator refused to move its clock (${advanced.status})`);
  await fetch(`${origin}/_emulator/requests`, { method: 'DELETE' });
  await runWorkflow();
  const log = (await (await fetch(`${origin}/_emulator/requests`)).json()) as LoggedRequest[];
  const summary = log.slice(0, 4).map((r) => `${r.method} ${r.path} ${r.status}`).join(' → ');
  const isToken = (r: LoggedRequest) => r.path.endsWith('/oauth2/token');
  const unauthorized = log.filter((r) => r.status === 401);
  const tokenRequests = log.filter(isToken);
  const first = log[0];
  const retried = log[2];
  if (
    unauthorized.length !== 1 || tokenRequests.length !== 1 || !first || first.status !== 401 || isToken(first)
    || !isToken(log[1]!) || log[1]!.status !== 200 || !retried || retried.path !== first.path || retried.method !== first.method
    || retried.status < 200 || retried.status >= 300
  ) {
    throw new Error(`expected one 401, one token request, then the same call answered 2xx; the emulator logged: ${summary || '(nothing)'}`);
  }
  return summary;
}
