/** The emulator's clock: a base clock plus an offset that only moves forward (POST /_emulator/clock). */
export interface Clock {
  /** @returns the emulator time, epoch ms. */
  now(): number;
  /**
   * Moves the clock forward. @param seconds non-negative. @returns the new time, epoch ms.
   * @throws {RangeError} when the move would take the clock past {@link LATEST_TIME}; nothing changes then.
   */
  advance(seconds: number): number;
  /** Drops the offset (reset). */
  reset(): void;
}

/**
 * The latest emulator time a clock move may reach: 9999-01-01T00:00:00.000Z. Beyond 9999 an ISO 8601 timestamp
 * needs the extended six-digit year that clients refuse, and past 275760 `Date` itself is invalid. The year of
 * margin keeps token and content-URL expiries (now + 1 h) and the real time that goes on passing in range.
 */
export const LATEST_TIME = Date.UTC(9999, 0, 1);

/**
 * @param base the base clock (epoch ms), e.g. Date.now.
 * @returns a clock with an adjustable forward offset.
 */
export function createClock(base: () => number): Clock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(seconds) {
      const next = offset + Math.round(seconds * 1000);
      const at = base() + next;
      if (!Number.isFinite(seconds) || seconds < 0 || !Number.isFinite(at) || at > LATEST_TIME) {
        throw new RangeError(`the clock can move forward by 0 to ${Math.max(0, Math.floor((LATEST_TIME - base() - offset) / 1000))} seconds (up to ${iso(LATEST_TIME)}), got ${String(seconds)}`);
      }
      offset = next;
      return at;
    },
    reset() {
      offset = 0;
    },
  };
}

/** @returns ISO 8601 UTC with milliseconds, e.g. `2026-01-01T00:00:00.000Z`. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
