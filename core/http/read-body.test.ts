import { describe, it, expect } from 'vitest';
import { BodyTooLargeError, readText } from './read-body.ts';

const response = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) => new Response(body, { headers });
const chunks = (...parts: string[]) => new ReadableStream<Uint8Array>({
  start(controller) {
    for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
    controller.close();
  },
});

describe('readText', () => {
  it('reads a body within its declared length and the cap', async () => {
    expect(await readText(response('{"a":1}', { 'content-length': '7' }), { maxBytes: 1024 })).toBe('{"a":1}');
  });

  it('reads a stream without a declared length, chunk by chunk, multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('naïve');
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 3));
        controller.enqueue(bytes.subarray(3));
        controller.close();
      },
    });
    expect(await readText(response(split), { maxBytes: 1024 })).toBe('naïve');
  });

  it('refuses a declared length over the cap before reading', async () => {
    await expect(readText(response('x'.repeat(10), { 'content-length': '2048' }), { maxBytes: 1024 })).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('holds an in-process body that outgrows its declared length to the cap', async () => {
    await expect(readText(response('x'.repeat(2000), { 'content-length': '10' }), { maxBytes: 1024 })).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(await readText(response('x'.repeat(2000), { 'content-length': '10' }), { maxBytes: 1024, truncate: true })).toBe('x'.repeat(1024));
  });

  it('does not trust the length of a coded body: it streams and stops at the cap', async () => {
    // Endless: read in one go (as a declared length allows), it would never end.
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => new Promise((resolve) => setTimeout(() => resolve(controller.enqueue(new Uint8Array(512).fill(120))), 1)),
    });
    const big = response(endless, { 'content-length': '20', 'content-encoding': 'gzip' });
    await expect(readText(big, { maxBytes: 4096 })).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('cuts an undeclared body at the cap when told to truncate', async () => {
    expect(await readText(response(chunks('a'.repeat(600), 'b'.repeat(600))), { maxBytes: 1000, truncate: true })).toBe(`${'a'.repeat(600)}${'b'.repeat(400)}`);
  });

  it('reads nothing from a response without a body', async () => {
    expect(await readText(new Response(null), { maxBytes: 10 })).toBe('');
  });
});
