import { describe, expect, it } from 'vitest';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { emulatorCredential, fakeContext } from '../../../test/n8n/support/fake-n8n.ts';
import { router } from './router.ts';

const rl = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
const REGISTER = { resource: 'user', operation: 'register', firstName: 'Ada', lastName: 'Lovelace', organizationId: rl(1), additionalFields: { city: 'London', phone: '' } };

async function run(parameters: IDataObject | IDataObject[], options: { items?: number; continueOnFail?: boolean; setup?: ReturnType<typeof emulatorCredential> } = {}) {
  const setup = options.setup ?? emulatorCredential();
  const log: IHttpRequestOptions[] = [];
  const ctx = fakeContext({
    ...setup, parameters, log, continueOnFail: options.continueOnFail,
    items: Array.from({ length: options.items ?? 1 }, () => ({ json: {} })),
  });
  const [out] = await router.call(ctx);
  return { out: out!, log, setup };
}

const apiCalls = (log: IHttpRequestOptions[]) => log.filter((o) => !o.url.includes('/oauth2/token'));

describe('partnerLearning node, operations with n8n mocked (emulator in-process)', () => {
  it('registers a learner: the record as the service sends it, paired with its item, blank optional fields not sent', async () => {
    const { out, log } = await run({ ...REGISTER, email: 'ada@example.com' });
    expect(out).toHaveLength(1);
    expect(out[0]!.json).toMatchObject({ email: 'ada@example.com', city: 'London', status: 'active', organizationId: 1 });
    expect(out[0]!.pairedItem).toEqual({ item: 0 });
    const body = JSON.parse(String(apiCalls(log)[0]!.body)) as IDataObject;
    expect(body).not.toHaveProperty('phone');
    expect(apiCalls(log)[0]!.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('with Continue On Fail, an invalid e-mail becomes { error, code, status } and is never sent; the next item goes on', async () => {
    const { out, log } = await run([{ ...REGISTER, email: 'not-an-email' }, { ...REGISTER, email: 'grace@example.com' }], {
      items: 2, continueOnFail: true,
    });
    expect(out[0]!.json).toMatchObject({ code: 'validation_failed', status: null });
    expect(String(out[0]!.json.error)).toMatch(/e-?mail/i);
    expect(out[0]!.pairedItem).toEqual({ item: 0 });
    expect(out[1]!.json).toMatchObject({ email: 'grace@example.com' });
    expect(apiCalls(log)).toHaveLength(1);
  });

  it('without it, the node fails with a NodeApiError naming the item, with a hint, and no secret', async () => {
    const setup = emulatorCredential();
    const error = await run([{ ...REGISTER, email: 'ok@example.com' }, { ...REGISTER, email: 'nope' }], { items: 2, setup })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(NodeApiError);
    const apiError = error as NodeApiError;
    expect(apiError.context.itemIndex).toBe(1);
    expect(apiError.description).toBeTruthy();
    const text = JSON.stringify({ message: apiError.message, description: apiError.description });
    expect(text).not.toContain(String(setup.credential.clientSecret));
    expect(text).not.toContain(String(setup.credential.apiKey));
  });

  it('a 404 carries the status and the code', async () => {
    const { out } = await run({ resource: 'course', operation: 'get', courseId: rl(999) }, { continueOnFail: true });
    expect(out[0]!.json).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('Get Many honours the limit (one item per record) and Return All with Updated After', async () => {
    const limited = await run({ resource: 'course', operation: 'getAll', returnAll: false, limit: 3 });
    expect(limited.out).toHaveLength(3);
    expect(limited.out.every((item) => typeof item.json.id === 'number')).toBe(true);
    const all = await run({ resource: 'category', operation: 'getAll', returnAll: true, filters: { updatedAfter: '2000-01-01T00:00:00' } });
    expect(all.out).toHaveLength(5);
    expect(apiCalls(all.log)[0]!.url).toContain(encodeURIComponent('updatedAt[after]'));
  });

  it('completes modules, lists transcripts, and downloads the certificate as a PDF file with the service\'s name', async () => {
    const setup = emulatorCredential();
    const user = (await run({ ...REGISTER, email: 'cert@example.com' }, { setup })).out[0]!.json;
    for (const moduleId of [1, 2, 3]) {
      const { out } = await run({ resource: 'completion', operation: 'complete', moduleId: rl(moduleId), userId: user.uuid }, { setup });
      expect(out[0]!.json).toEqual({ moduleId, userId: user.uuid, completed: true });
    }
    const records = (await run({ resource: 'transcript', operation: 'getAll', userId: user.uuid, returnAll: true }, { setup })).out;
    const course = records.find((r) => r.json.certificateAvailable === true)!;
    expect(course).toBeDefined();
    const { out } = await run({
      resource: 'transcript', operation: 'downloadCertificate', userId: user.uuid, transcriptId: String(course.json.id), binaryPropertyName: 'pdf',
    }, { setup });
    const binary = out[0]!.binary!.pdf!;
    expect(binary.mimeType).toBe('application/pdf');
    expect(binary.fileName).toMatch(/^certificate-.+\.pdf$/);
    expect(Buffer.from(binary.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(out[0]!.json).toMatchObject({ fileName: binary.fileName, mimeType: 'application/pdf' });
  });

  it('Simplify Output (on by default) drops the JSON-LD keys; off, the record is as the service sends it', async () => {
    const simple = await run({ resource: 'course', operation: 'get', courseId: rl(1) });
    expect(Object.keys(simple.out[0]!.json).filter((key) => key.startsWith('@'))).toEqual([]);
    expect(simple.out[0]!.json).toMatchObject({ id: 1 });
    const raw = await run({ resource: 'course', operation: 'get', courseId: rl(1), simplify: false });
    expect(raw.out[0]!.json).toHaveProperty('@id');
  });

  it('a downloaded PDF\'s fileSize is its length in bytes, a number', async () => {
    const setup = emulatorCredential();
    const user = (await run({ ...REGISTER, email: 'size@example.com' }, { setup })).out[0]!.json;
    const { out } = await run({ resource: 'transcript', operation: 'downloadPdf', userId: user.uuid, binaryPropertyName: 'data' }, { setup });
    const bytes = Buffer.from(out[0]!.binary!.data!.data, 'base64').length;
    expect(out[0]!.json.fileSize).toBe(bytes);
  });

  it('deletes a learner: { userId, deleted: true }', async () => {
    const setup = emulatorCredential();
    const user = (await run({ ...REGISTER, email: 'gone@example.com' }, { setup })).out[0]!.json;
    const { out } = await run({ resource: 'user', operation: 'delete', userId: user.uuid }, { setup });
    expect(out[0]!.json).toEqual({ userId: user.uuid, deleted: true });
  });

  it('fetches the token once and reuses it from the credential across items', async () => {
    const { log } = await run({ resource: 'organization', operation: 'get', organizationId: rl(1) }, { items: 3 });
    expect(log.filter((o) => o.url.includes('/oauth2/token'))).toHaveLength(1);
    expect(apiCalls(log)).toHaveLength(3);
  });
});
