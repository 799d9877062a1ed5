/**
 * Deno entry for the limiter host's runtime test: `createLimiterHost` served by `Deno.serve`, and two clients of one
 * API key in this Deno process, each with a limiter of its own (two "processes"), against the Node emulator at the
 * origin given. Each told a one-call plan's rate, first alone, then through the host; prints the service's statuses
 * of each phase as one JSON line.
 */
import { createClient, createLimiter, createLimiterHost, createSharedLimiter, MemoryTokenStore } from '../../core/index.ts';
import { defaultNow, defaultSleep } from '../../core/runtime.ts';
import { sandboxOptions, type PartnerCredentials } from './runtime-scenario.ts';

interface DenoServer {
  addr: { port: number };
  shutdown(): Promise<void>;
}
// Typed locally so the repository's Node-typed tsc run needs no Deno type package.
const deno = (globalThis as unknown as {
  Deno: {
    args: string[];
    exit(code: number): never;
    serve(options: { port: number; hostname: string; onListen?: () => void }, handler: (request: Request) => Promise<Response>): DenoServer;
  };
}).Deno;
const origin = deno.args[0];
if (!origin) throw new Error('usage: runtime-deno-limiter-host.ts <emulator origin>');

const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(`${origin}/_emulator${path}`, {
    method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.status === 204 ? undefined : response.json();
};
const statuses = async (): Promise<number[]> =>
  ((await control('GET', '/requests')) as { path: string; status: number }[])
    .filter((r) => !r.path.endsWith('/oauth2/token')).map((r) => r.status);

const token = 'deno-host-token';
const server = deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => undefined }, createLimiterHost({ token }).fetch);
const partners = (await control('GET', '/partners')) as PartnerCredentials[];
const base = sandboxOptions(partners[0], (input, init) => fetch(input, init));
// A little under the plan (1.8 of 2 req/s), so loopback jitter cannot make a spaced call early.
const rateLimit = { requestsPerSecond: 1.8, burst: 1 };
const hostErrors: string[] = [];
const process = (shared: boolean) => createClient({
  ...base, tokenStore: new MemoryTokenStore(),
  limiter: shared
    ? createSharedLimiter({ url: `http://127.0.0.1:${server.addr.port}/limits/`, apiKey: base.apiKey, token, rateLimit, onHostError: (e) => hostErrors.push(e.message) })
    : createLimiter({ now: defaultNow, sleep: defaultSleep, rateLimit }),
});
const three = (client: ReturnType<typeof process>, id: number) => Array.from({ length: 3 }, () => client.organizations.get(id));

const id = (await process(false).organizations.list({ pageSize: 1 }).toArray({ max: 1 }))[0]!.id;
const [a, b] = [process(false), process(false)];
await Promise.all([a.organizations.get(id), b.organizations.get(id)]); // tokens, before the plan
await control('PUT', `/usage-plans/${encodeURIComponent(base.apiKey)}`, { ratePerSecond: 2, burst: 1, dailyQuota: 1_000_000 });
await control('DELETE', '/requests');
await Promise.all([...three(a, id), ...three(b, id)]);
const alone = await statuses();

const [x, y] = [process(true), process(true)];
await Promise.all([x.organizations.get(id), y.organizations.get(id)]);
await new Promise((resolve) => setTimeout(resolve, 1000)); // the bucket refills
await control('DELETE', '/requests');
await Promise.all([...three(x, id), ...three(y, id)]);
const shared = await statuses();

await server.shutdown();
console.log(JSON.stringify({ runtime: navigator.userAgent, alone, shared, hostErrors }));
deno.exit(0);
