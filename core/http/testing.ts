/**
 * Test helpers for the pipeline's unit tests (not exported from the package): a fake clock whose `sleep` only
 * resolves when the test advances time, and unsigned JWTs shaped like the service's access tokens.
 */
import { UnsecuredJWT } from 'jose';

/** A manual clock. `sleep` records every requested delay and resolves when time is advanced past it. */
export interface FakeClock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every delay passed to `sleep`, in call order. */
  readonly sleeps: number[];
  /** Moves time forward, resolving the sleeps that come due, in order. */
  advance(ms: number): Promise<void>;
  /**
   * Runs `work` to completion, advancing time to the next pending sleep whenever nothing else is happening.
   * `busy` (e.g. "a fetch is in flight") holds time still while it returns true.
   */
  run<T>(work: Promise<T>, options?: { maxSteps?: number; busy?: () => boolean }): Promise<T>;
}

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * @param start Initial time, epoch ms.
 * @returns A {@link FakeClock}.
 */
export function fakeClock(start = Date.UTC(2026, 10, 22, 12)): FakeClock {
  let t = start;
  const timers: { at: number; seq: number; resolve: () => void }[] = [];
  const sleeps: number[] = [];
  let seq = 0;
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      sleeps.push(ms);
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: t + Math.max(0, ms), seq: seq++, resolve };
      timers.push(timer);
      signal?.addEventListener('abort', () => {
        timers.splice(timers.indexOf(timer), 1);
        reject(signal.reason);
      }, { once: true });
    });
  const fireDue = async (): Promise<void> => {
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    while (timers[0] && timers[0].at <= t) {
      timers.shift()?.resolve();
      for (let i = 0; i < 3; i++) await turn();
      timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    }
  };
  return {
    now: () => t,
    sleep,
    sleeps,
    async advance(ms) {
      const end = t + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > end) break;
        t = Math.max(t, next.at);
        await fireDue();
      }
      t = end;
      await fireDue();
    },
    async run(work, { maxSteps = 100_000, busy = () => false } = {}) {
      let settled = false;
      const done = work.finally(() => { settled = true; });
      done.catch(() => undefined);
      for (let step = 0; step < maxSteps && !settled; step++) {
        for (let i = 0; i < 5 && !settled; i++) await turn();
        while (busy() && !settled) await turn();
        if (settled) break;
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next) continue;
        t = Math.max(t, next.at);
        await fireDue();
      }
      return done;
    },
  };
}

/**
 * An unsigned JWT with the service's access-token claims (the client never verifies signatures).
 *
 * @param claims Overrides; `scope: undefined` leaves the claim out.
 * @param now Epoch ms for `iat`/`exp` (exp = now + 3600 s unless given).
 * @returns The compact JWT.
 */
export function fakeAccessToken(claims: Record<string, unknown> = {}, now = Date.UTC(2026, 10, 22, 12)): string {
  const base: Record<string, unknown> = {
    sub: 'c1ient1d0000000000000000ab', token_use: 'access', scope: 'partner-api/read partner-api/write',
    iss: 'https://idp.example.com/pool', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 3600,
    client_id: 'c1ient1d0000000000000000ab', jti: crypto.randomUUID(), ...claims,
  };
  for (const key of Object.keys(base)) if (base[key] === undefined) delete base[key];
  return new UnsecuredJWT(base).encode();
}

/**
 * A JSON `Response`.
 *
 * @param status HTTP status.
 * @param body Serialized as JSON (`undefined`: empty body).
 * @param headers Extra headers.
 * @returns The response.
 */
export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined || status === 204 ? null : JSON.stringify(body), {
    status, headers: { 'content-type': 'application/json', ...headers },
  });
}
