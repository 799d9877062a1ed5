/**
 * One end-to-end scenario of the core client, written against Web standards only so the same code runs inside
 * workerd, Deno and Node. It returns a JSON-serializable report (never throws) that the vitest side asserts; a step
 * that fails is named in `failure` so a broken runtime says where it broke.
 */
import { MemoryTokenStore, NotFoundError, createClient } from '../../core/index.ts';
import type { ClientOptions, PartnerLearningClient, TokenStore } from '../../core/index.ts';

/** The part of `emulator.partners(origin)` / `GET /_emulator/partners` the scenario needs. */
export interface PartnerCredentials {
  environments: Record<
    string,
    { tokenUrl: string; baseUrl: string; apiKey: string; clients: { clientId: string; clientSecret: string }[] }
  >;
}

export interface ScenarioReport {
  runtime: string;
  /** Steps that completed, in order. */
  steps: string[];
  failure?: { step: string; name: string; message: string };
  ping?: string;
  learnerUuidLength?: number;
  courses?: { items: number; pages: number; totalItems: number | undefined; uniqueIds: number };
  detail?: { id: number; modules: number };
  content?: { moduleId: number; contentType: string; urlOnEmulator: boolean; expiresInFuture: boolean };
  transcripts?: { count: number; includesCompletedModule: boolean };
  pdf?: { magic: string; bytes: number; contentType: string; fileName: string };
  notFound?: { name: string; code: string; status: number | undefined; isNotFoundError: boolean };
  logLines: number;
  /** True when a secret (client secret, API key, token) appeared in a log line or an error message. */
  secretLeaked: boolean;
}

/**
 * Client options for the first read-write client of one partner and environment.
 *
 * @param partner - An entry of the emulator's partner list.
 * @param fetchImpl - How the client reaches the emulator (in-process `emu.fetch` or the global fetch).
 * @param extra - Further options (token store, rate limit, …).
 * @returns Options for `createClient`.
 * @throws Error when the partner has no sandbox client.
 */
export function sandboxOptions(
  partner: PartnerCredentials | undefined,
  fetchImpl: typeof fetch,
  extra: Partial<ClientOptions> = {},
): ClientOptions {
  const env = partner?.environments['sandbox'];
  const rw = env?.clients[0];
  if (!env || !rw) throw new Error('the emulator listed no sandbox partner with a client');
  return {
    tokenUrl: env.tokenUrl,
    baseUrl: env.baseUrl,
    clientId: rw.clientId,
    clientSecret: rw.clientSecret,
    apiKey: env.apiKey,
    environment: 'sandbox',
    fetch: fetchImpl,
    ...extra,
  };
}

/** The runtime's name as it reports itself (`Cloudflare-Workers`, `Deno/2.9.6`, `Node.js/24`). */
function runtimeName(): string {
  return typeof navigator === 'undefined' ? 'unknown' : navigator.userAgent;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<{ bytes: number; head: Uint8Array }> {
  const reader = body.getReader();
  let bytes = 0;
  let head = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (head.length < 8) head = new Uint8Array([...head, ...value.subarray(0, 8 - head.length)]);
    bytes += value.byteLength;
  }
  return { bytes, head };
}

/**
 * Runs the scenario: ping, register a learner, list courses page by page, course detail, a content URL, complete a
 * module, list transcripts, stream the transcript PDF to the end, and provoke a typed 404.
 *
 * @param options - Client options (see {@link sandboxOptions}); a logger is added to check for leaked secrets.
 * @param tokenStore - Optional store (the Workers test passes a KV-backed one); default a fresh memory store.
 * @returns The report; never rejects.
 */
export async function runScenario(options: ClientOptions, tokenStore?: TokenStore): Promise<ScenarioReport> {
  const logs: string[] = [];
  const report: ScenarioReport = { runtime: runtimeName(), steps: [], logLines: 0, secretLeaked: false };
  const secrets = [options.clientSecret, options.apiKey];
  const observedTokens: string[] = [];
  const logger: ClientOptions['logger'] = (level, message, fields) => {
    logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  let step = 'createClient';
  try {
    const client: PartnerLearningClient = createClient({
      ...options,
      logger,
      tokenStore: spyStore(tokenStore ?? new MemoryTokenStore(), observedTokens),
    });
    step = 'ping';
    report.ping = (await client.ping()).status;
    report.steps.push(step);

    step = 'register';
    const [org] = await client.organizations.list().toArray({ max: 1 });
    if (!org) throw new Error('no organization to register the learner with');
    const learner = await client.users.register({
      email: `runtime.learner@example.com`,
      firstName: 'Runtime',
      lastName: 'Learner',
      organizationId: org.id,
    });
    const userId = learner.uuid;
    report.learnerUuidLength = userId.length;
    report.steps.push(step);

    step = 'courses';
    let pages = 0;
    let totalItems: number | undefined;
    for await (const page of client.courses.list({ pageSize: 2 }).pages()) {
      pages += 1;
      totalItems = page.totalItems;
    }
    const courses = await client.courses.list({ pageSize: 2 }).toArray({ max: 1000 });
    report.courses = { items: courses.length, pages, totalItems, uniqueIds: new Set(courses.map((c) => c.id)).size };
    report.steps.push(step);

    step = 'detail';
    let moduleId: number | undefined;
    for (const course of courses) {
      const detail = await client.courses.get(course.id);
      const playable = detail.modules.find((m) => m.contentType !== undefined && m.contentType !== 'scorm');
      if (playable) {
        report.detail = { id: detail.id, modules: detail.modules.length };
        moduleId = playable.id;
        break;
      }
    }
    if (moduleId === undefined) throw new Error('no published course has a non-SCORM module');
    report.steps.push(step);

    step = 'content';
    const content = await client.modules.content(moduleId, { userId });
    report.content = {
      moduleId: content.module_id,
      contentType: content.content_type,
      urlOnEmulator: content.content_url.startsWith(new URL(options.baseUrl).origin),
      expiresInFuture: Date.parse(content.expires_at) > Date.now(),
    };
    report.steps.push(step);

    step = 'complete';
    await client.modules.complete(moduleId, { userId });
    report.steps.push(step);

    step = 'transcripts';
    const transcripts = await client.transcripts.list({ userId }).toArray({ max: 100 });
    report.transcripts = {
      count: transcripts.length,
      includesCompletedModule: JSON.stringify(transcripts).includes(String(moduleId)),
    };
    report.steps.push(step);

    step = 'pdf';
    const pdf = await client.transcripts.pdf({ userId });
    const { bytes, head } = await readAll(pdf.body);
    report.pdf = { magic: new TextDecoder().decode(head.subarray(0, 5)), bytes, contentType: pdf.contentType, fileName: pdf.fileName };
    report.steps.push(step);

    step = 'notFound';
    try {
      await client.courses.get(987_654_321);
      throw new Error('courses.get of an unknown id resolved');
    } catch (error) {
      if (!(error instanceof Error) || !('code' in error)) throw error;
      const e = error as Error & { code: string; status?: number };
      report.notFound = { name: e.name, code: e.code, status: e.status, isNotFoundError: error instanceof NotFoundError };
      logs.push(e.message);
    }
    report.steps.push(step);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    report.failure = { step, name: e.name, message: e.message };
    logs.push(e.message, e.stack ?? '');
  }
  report.logLines = logs.length;
  const text = logs.join('\n') + JSON.stringify(report.failure ?? {});
  report.secretLeaked = [...secrets, ...observedTokens].some((s) => s.length > 0 && text.includes(s));
  return report;
}

/** Wraps a store to learn the access tokens the client obtained, so the leak check can look for them too. */
function spyStore(store: TokenStore, tokens: string[]): TokenStore {
  return {
    get: async (key) => {
      const token = await store.get(key);
      if (token) tokens.push(token.accessToken);
      return token;
    },
    set: async (key, token) => {
      tokens.push(token.accessToken);
      await store.set(key, token);
    },
    delete: (key) => store.delete(key),
  };
}
