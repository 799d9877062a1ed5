/**
 * One cooldown gate per API key, shared by every item, execution and node in this n8n process: the usage plan's
 * limits belong to the key, so a 429 or 5xx seen by one call pauses every call with that key until the backoff has
 * passed. Module state lives as long as the process (n8n loads a node class once); keys are stored hashed.
 */
import { createHash } from 'crypto';

interface Gate {
  pausedUntil: number;
  /** 429s and 5xx in a row with no success between: the key-wide pause grows with it. */
  failureStreak: number;
}

const gates = new Map<string, Gate>();

function gateFor(apiKey: string): Gate {
  const id = createHash('sha256').update(apiKey).digest('hex');
  let gate = gates.get(id);
  if (!gate) {
    gate = { pausedUntil: 0, failureStreak: 0 };
    gates.set(id, gate);
  }
  return gate;
}

/** The shared throttling state of one API key, as one transport sees it. */
export interface Cooldown {
  /** Milliseconds left of the key-wide pause at `now` (0 when none). */
  remaining(now: number): number;
  /** Pauses every call with this key until `delayMs` after `now` (extends, never shortens, a running pause). */
  pause(now: number, delayMs: number): void;
  /** Counts a 429 or 5xx. */
  failed(): void;
  /** 429s and 5xx in a row for this key (0 after a success). */
  streak(): number;
  /** A success ends the streak. */
  succeeded(): void;
}

/**
 * @param apiKey The credential's API key (hashed before use; never kept in clear).
 * @returns The key's gate.
 */
export function cooldownFor(apiKey: string): Cooldown {
  const gate = gateFor(apiKey);
  return {
    remaining: (now) => Math.max(0, gate.pausedUntil - now),
    pause(now, delayMs) {
      gate.pausedUntil = Math.max(gate.pausedUntil, now + delayMs);
    },
    failed() {
      gate.failureStreak += 1;
    },
    streak: () => gate.failureStreak,
    succeeded() {
      gate.failureStreak = 0;
    },
  };
}
