import type { Clock } from './clock.ts';
import type { FaultState } from './faults.ts';
import type { KeyStore } from './keys.ts';
import type { Prng } from './prng.ts';
import type { RequestLog } from './request-log.ts';
import type { EmulatorState } from './state.ts';
import type { EnvName, User } from './types.ts';

/** What every route and middleware shares: the clock, the state and the fault settings. */
export interface EmulatorContext {
  seed: number;
  clock: Clock;
  state: EmulatorState;
  keys: KeyStore;
  faults: FaultState;
  log: RequestLog;
  realisticLatency: boolean;
  /** Draws the 1-3 s PDF delay; seeded so runs repeat. */
  latency: Prng;
  /** Back to the seed: data, clock, faults, usage counters, request log. */
  reset(): void;
}

/**
 * What a socket adapter tells the app about the caller. Absent for an in-process call (`emulator.fetch`), whose
 * caller is this process itself.
 */
export interface CallerBinding {
  /** The peer's IP address, as the socket reports it. */
  callerAddress: string;
}

/** Hono typing: the adapter's binding, and values the gateway and learner checks put on the context. */
export interface AppEnv {
  Bindings: CallerBinding | undefined;
  Variables: {
    env: EnvName;
    /** Partner of the API key (set by the gateway). */
    partnerId: string;
    /** Scopes of the verified access token. */
    scopes: string[];
    /** The X-User-ID learner, once resolved. */
    learner: User;
  };
}
