/**
 * The largest estimate some kind of 429 has measured for this client lately: how big the plan proved to be for it.
 * The pacing probes a share squeezed below it on that share's clock (`pacing.ts`), which brings an n8n worker back
 * when the other worker leaves. A plan the provider lowered looks the same to one client, so a peak is held only
 * {@link PEAK_HOLD_MS} after the 429 that measured it: held for ever, a plan lowered from 20 to 5 req/s (or 10 to 2)
 * went on being probed on the old plan's clock, at 2.0 to 2.7 % 429s where the same plans from the start meet 0.7 to
 * 1.0 % (row 7n).
 */

/**
 * How long a peak is held after the 429 that measured it (ms). Long enough for a batch that shares the plan with
 * another to finish (row n8n-5's runs take about a minute; row 7m read the same with 60 s or 120 s here), short
 * enough that a lowered plan is probed on its own clock within a few minutes.
 */
export const PEAK_HOLD_MS = 120_000;

/** One peak: its value and when a 429 measured it. Times are epoch ms of the pacing's clock. */
export class Peak {
  #value = 0;
  #at = 0;

  /**
   * @param now Epoch ms.
   * @returns The peak held at `now` (req/s), 0 once {@link PEAK_HOLD_MS} passed since the 429 that measured it.
   */
  value(now: number): number {
    return now - this.#at > PEAK_HOLD_MS ? 0 : this.#value;
  }

  /**
   * A 429 measured `estimate`: it is the peak from now if it is at least the one held (a lower one leaves that to
   * run out).
   *
   * @param estimate Requests per second.
   * @param now Epoch ms.
   */
  measured(estimate: number, now: number): void {
    if (estimate < this.value(now)) return;
    this.#value = estimate;
    this.#at = now;
  }
}
