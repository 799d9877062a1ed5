/**
 * Graceful restarts where the runtime gives the app no server handle (`deno serve`): the relay counts the calls
 * under way; once draining, it answers new calls 503 with `Retry-After` (the caller retries on the next instance)
 * and resolves when the last call under way has its answer, or after a bound.
 */
import { problem } from './problem.ts';

/** A fetch handler that can drain. */
export interface Drainable<A extends unknown[]> {
  fetch(request: Request, ...rest: A): Promise<Response>;
  /** Stops taking calls and resolves when none is under way, or after `maxMs`. */
  drain(maxMs: number): Promise<void>;
}

/**
 * @param handler The app's fetch.
 * @returns The same handler, counted, with `drain`.
 */
export function drainable<A extends unknown[]>(handler: (request: Request, ...rest: A) => Response | Promise<Response>): Drainable<A> {
  let underWay = 0;
  let draining = false;
  let idle: (() => void) | undefined;
  return {
    async fetch(request, ...rest) {
      if (draining) {
        return problem(503, 'upstream_unavailable', { detail: 'The relay is restarting: retry in a moment.', headers: { 'retry-after': '1' } });
      }
      underWay += 1;
      try {
        return await handler(request, ...rest);
      } finally {
        underWay -= 1;
        if (underWay === 0) idle?.();
      }
    },
    drain(maxMs) {
      draining = true;
      if (underWay === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, maxMs);
        idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}
