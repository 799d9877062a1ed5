/**
 * Groups injected clocks that tell the same time, so process-wide state kept in one clock's milliseconds (a pause
 * "until t", a token bucket's last refill) is shared by every client that can read it, and by no other.
 *
 * Grouping by function identity alone is not enough: two clients built by a helper each get their own
 * `now: () => Date.now()` (or `() => fake.now()`), and must still share their API key's cooldown. Grouping all
 * clocks together is wrong too: a fake clock in 2026-03 reading a pause set on the real clock in 2026-11 would wait
 * for months. So a clock seen for the first time joins the group whose clock reads the same time (within
 * {@link SAME_TIME_TOLERANCE_MS}), or starts a new group.
 */

/** Two clocks whose readings differ by at most this much are taken to be the same clock. */
export const SAME_TIME_TOLERANCE_MS = 1_000;

type Clock = () => number;

interface Domain<S> {
  /** Weak, so a group lives only as long as one of its clients' clocks does. */
  clocks: WeakRef<Clock>[];
  states: Map<string, S>;
}

/** Per-clock-group maps of state, keyed by the caller (e.g. a hashed API key). */
export interface ClockDomains<S> {
  /**
   * @param now A client's clock.
   * @returns The state map of the group that clock belongs to (joined or created now).
   */
  statesFor(now: Clock): Map<string, S>;
  /** Forgets every group (tests). */
  reset(): void;
}

/**
 * @returns An empty registry of clock groups.
 * @example
 * const domains = createClockDomains<KeyState>();
 * const states = domains.statesFor(options.now); // same map for every clock reading the same time
 */
export function createClockDomains<S>(): ClockDomains<S> {
  let domains: Domain<S>[] = [];
  let byClock = new WeakMap<Clock, Domain<S>>();

  const liveClock = (domain: Domain<S>): Clock | undefined => {
    domain.clocks = domain.clocks.filter((ref) => ref.deref() !== undefined);
    return domain.clocks[0]?.deref();
  };

  return {
    statesFor(now) {
      const known = byClock.get(now);
      if (known) return known.states;
      const reading = now();
      let joined: Domain<S> | undefined;
      domains = domains.filter((domain) => {
        const clock = liveClock(domain);
        if (!clock) return false;
        if (!joined && Math.abs(clock() - reading) <= SAME_TIME_TOLERANCE_MS) joined = domain;
        return true;
      });
      if (!joined) {
        joined = { clocks: [], states: new Map() };
        domains.push(joined);
      }
      joined.clocks.push(new WeakRef(now));
      byClock.set(now, joined);
      return joined.states;
    },
    reset() {
      domains = [];
      byClock = new WeakMap();
    },
  };
}
