import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { createClient } from '../client.ts';
import type { CourseDetail, CourseProgress, Module, ModuleContent, Transcript, User } from '../types/records.ts';
import { z } from 'zod';
import {
  courseDetailRecordSchema, moduleContentRecordSchema, moduleRecordSchema, progressRecordSchema, transcriptRecordSchema,
  userRecordSchema,
} from './records.ts';

/** Compile-time (npm run typecheck): each schema's output is the record type callers use, or tsc fails here. */
type Agrees<Out extends Declared, Declared> = [Out, Declared];
export type RecordAgreement = [
  Agrees<z.output<typeof userRecordSchema>, User>,
  Agrees<z.output<typeof moduleRecordSchema>, Module>,
  Agrees<z.output<typeof courseDetailRecordSchema>, CourseDetail>,
  Agrees<z.output<typeof moduleContentRecordSchema>, ModuleContent>,
  Agrees<z.output<typeof progressRecordSchema>, CourseProgress>,
  Agrees<z.output<typeof transcriptRecordSchema>, Transcript>,
];

describe('record schemas (the OpenAPI documents\' source)', () => {
  it('accept what the emulator answers, and refuse a record missing a named field', async () => {
    const emu = createEmulator();
    const env = emu.partners('http://emu.test')[0]!.environments.sandbox;
    const client = createClient({ ...env, clientId: env.clients[0]!.clientId, clientSecret: env.clients[0]!.clientSecret, fetch: emu.fetch });
    const org = (await client.organizations.page()).items[0]!;
    const user = await client.users.register({ email: 'records@example.com', firstName: 'Ada', lastName: 'L', organizationId: org.id });
    expect(userRecordSchema.parse(user)).toMatchObject({ uuid: user.uuid });
    const course = await client.courses.get((await client.courses.page()).items[0]!.id);
    courseDetailRecordSchema.parse(course);
    const learner = client.forLearner(user.uuid);
    const module = course.modules.find((m) => m.contentType !== 'scorm')!;
    moduleContentRecordSchema.parse(await learner.modules.content(module.id));
    await learner.modules.complete(module.id);
    for (const p of (await learner.progress.page()).items) progressRecordSchema.parse(p);
    for (const t of (await learner.transcripts.page()).items) transcriptRecordSchema.parse(t);
    const { uuid: _dropped, ...withoutUuid } = user;
    expect(userRecordSchema.safeParse(withoutUuid).success).toBe(false);
  });
});
