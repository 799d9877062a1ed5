/**
 * A runnable tour of the core client: `npx tsx examples/quickstart.ts`.
 *
 * With the PARTNER_LEARNING_* variables set (see README), it talks to that service (read-only steps only, plus one
 * registration of the e-mail in PARTNER_LEARNING_DEMO_EMAIL if given). Without them, it starts the emulator
 * in-process and runs the whole flow against it, so it works on a fresh clone with no credentials.
 */
import { createClient, NotFoundError, type ClientOptions } from 'partner-learning-client';
import { createEmulator } from 'partner-learning-emulator';

function optionsFromEnvironment(): ClientOptions | undefined {
  const env = process.env;
  if (!env.PARTNER_LEARNING_TOKEN_URL) return undefined;
  return {
    tokenUrl: env.PARTNER_LEARNING_TOKEN_URL,
    baseUrl: env.PARTNER_LEARNING_BASE_URL ?? '',
    clientId: env.PARTNER_LEARNING_CLIENT_ID ?? '',
    clientSecret: env.PARTNER_LEARNING_CLIENT_SECRET ?? '',
    apiKey: env.PARTNER_LEARNING_API_KEY ?? '',
    environment: 'sandbox',
  };
}

function optionsForEmulator(): ClientOptions {
  const emulator = createEmulator();
  const sandbox = emulator.partners('http://emulator.test')[0]!.environments.sandbox;
  return {
    tokenUrl: sandbox.tokenUrl,
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clients[0]!.clientId,
    clientSecret: sandbox.clients[0]!.clientSecret,
    apiKey: sandbox.apiKey,
    environment: 'emulator',
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  };
}

const real = optionsFromEnvironment();
const client = createClient(real ?? optionsForEmulator());
const say = (line: string) => process.stdout.write(`${line}\n`);

say(`ping: ${(await client.ping()).status}`);
const courses = await client.courses.list({ pageSize: 50 }).toArray({ max: 200 });
say(`courses: ${courses.length}`);
const detail = await client.courses.get(courses[0]!.id);
say(`first course: ${detail.title ?? detail.id} with ${detail.modules.length} modules`);

if (!real) {
  const [org] = await client.organizations.list().toArray({ max: 1 });
  const learner = await client.users.register({
    email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: org!.id,
  });
  say(`registered: ${learner.uuid} (${learner.status})`);

  for (const module of detail.modules) {
    const content = await client.modules.content(module.id, { userId: learner.uuid });
    say(`module ${module.id}: ${content.content_type}, URL valid until ${content.expires_at}`);
    if (content.content_type !== 'scorm') await client.modules.complete(module.id, { userId: learner.uuid });
  }
  const progress = await client.progress.list({ userId: learner.uuid }).toArray({ max: 10 });
  say(`progress: ${progress.map((p) => `${p.status} ${p.completionPercent}%`).join(', ')}`);

  const transcripts = await client.transcripts.list({ userId: learner.uuid }).toArray({ max: 100 });
  const courseRecord = transcripts.find((t) => t.isCourse && t.certificateAvailable);
  const pdf = await client.transcripts.pdf({ userId: learner.uuid });
  const bytes = new Uint8Array(await new Response(pdf.body).arrayBuffer());
  say(`transcript PDF: ${pdf.fileName}, ${bytes.length} bytes, starts with ${new TextDecoder().decode(bytes.slice(0, 5))}`);
  if (courseRecord) {
    const certificate = await client.transcripts.certificatePdf(courseRecord.id!, { userId: learner.uuid });
    await certificate.body.cancel();
    say(`certificate: ${certificate.fileName}`);
  }

  await client.users.delete(learner.uuid);
  try {
    await client.users.get(learner.uuid);
  } catch (error) {
    if (error instanceof NotFoundError) say(`after erase: ${error.code} (${error.status})`);
    else throw error;
  }
}
