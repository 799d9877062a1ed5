/**
 * A PDF that has started streams on past the relay's deadline, but not forever (relay contract, "Errors"): when no
 * byte comes for the deadline's length, the stream is cut and the upstream body cancelled.
 */

/**
 * @param body The upstream body.
 * @param idleMs The longest wait for the next chunk.
 * @returns A stream of the same bytes that errors after `idleMs` without one, cancelling `body`.
 */
export function idleLimited(body: ReadableStream<Uint8Array>, idleMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no byte from the service for ${idleMs} ms`)), idleMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), idle]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        await reader.cancel(error).catch(() => undefined);
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
