/** The emulator's clock: a base clock plus an offset that only moves forward (POST /_emulator/clock). */
export interface Clock {
  /** @returns the emulator time, epoch ms. */
  now(): number;
  /** Moves the clock forward. @param seconds non-negative. @returns the new time, epoch ms. */
  advance(seconds: number): number;
  /** Drops the offset (reset). */
  reset(): void;
}

/**
 * @param base the base clock (epoch ms), e.g. Date.now.
 * @returns a clock with an adjustable forward offset.
 */
export function createClock(base: () => number): Clock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(seconds) {
      offset += Math.round(seconds * 1000);
      return base() + offset;
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
