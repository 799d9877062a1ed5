import { createPrng, deriveSeed } from './prng.ts';
import type { Prng } from './prng.ts';
import { DEFAULT_PLAN, seedCatalog, seedPartners } from './seed.ts';
import { ENV_NAMES } from './types.ts';
import type { ApiKeyRecord, Catalog, ClientRecord, CourseProgress, EnvName, PartnerRecord, Transcript, User } from './types.ts';
import { freshCounters } from './usage-plan.ts';
import type { UsageCounters } from './usage-plan.ts';

/** One environment's data: its catalog copy and its learners' records. */
export interface EnvData {
  env: EnvName;
  catalog: Catalog;
  users: Map<string, User>;
  /** `${partnerId}|${lowercased email}` -> uuid, for idempotent registration. */
  emailIndex: Map<string, string>;
  progresses: Map<number, CourseProgress>;
  progressesByLearner: Map<string, CourseProgress[]>;
  transcripts: Map<number, Transcript>;
  transcriptsByLearner: Map<string, Transcript[]>;
  /** `${uuid}|m${moduleId}` and `${uuid}|c${courseId}` -> the completion transcript. */
  completions: Map<string, Transcript>;
  nextProgressId: number;
  nextTranscriptId: number;
}

/** Everything `reset()` restores. */
export interface EmulatorState {
  partners: PartnerRecord[];
  apiKeys: Map<string, ApiKeyRecord>;
  clients: Map<string, ClientRecord & { env: EnvName }>;
  usage: Map<string, UsageCounters>;
  envs: Record<EnvName, EnvData>;
  /** Learner uuids come from here, so a run is repeatable for a seed. */
  ids: Prng;
  /** `PUT /_emulator/pdf-padding`: pad transcript PDFs to about this many bytes (0 = off). */
  pdfPadding: number;
}

/**
 * Builds the seed state.
 * @param seed the emulator seed.
 * @param now emulator clock at seeding, epoch ms.
 * @returns a fresh state with partners, credentials and catalogs, and no learners.
 */
export function createState(seed: number, now: number): EmulatorState {
  const partners = seedPartners(seed);
  const apiKeys = new Map<string, ApiKeyRecord>();
  const clients = new Map<string, ClientRecord & { env: EnvName }>();
  const usage = new Map<string, UsageCounters>();
  for (const partner of partners) {
    for (const env of ENV_NAMES) {
      const creds = partner.envs[env];
      apiKeys.set(creds.apiKey, { key: creds.apiKey, partnerId: partner.id, env, enabled: true, plan: { ...DEFAULT_PLAN } });
      usage.set(creds.apiKey, freshCounters(DEFAULT_PLAN, now));
      for (const client of creds.clients) clients.set(client.clientId, { ...client, env });
    }
  }
  const envs = Object.fromEntries(ENV_NAMES.map((env) => [env, createEnvData(env, seedCatalog(seed, env, now))])) as Record<EnvName, EnvData>;
  return { partners, apiKeys, clients, usage, envs, ids: createPrng(deriveSeed(seed, 'ids')), pdfPadding: 0 };
}

function createEnvData(env: EnvName, catalog: Catalog): EnvData {
  return {
    env,
    catalog,
    users: new Map(),
    emailIndex: new Map(),
    progresses: new Map(),
    progressesByLearner: new Map(),
    transcripts: new Map(),
    transcriptsByLearner: new Map(),
    completions: new Map(),
    nextProgressId: 1,
    nextTranscriptId: 1,
  };
}

/**
 * Appends a record to a per-learner list, creating the list on first use.
 * @param index the per-learner index.
 * @param uuid the learner.
 * @param record the record.
 */
export function pushFor<T>(index: Map<string, T[]>, uuid: string, record: T): void {
  const list = index.get(uuid);
  if (list) list.push(record);
  else index.set(uuid, [record]);
}
