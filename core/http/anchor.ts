/**
 * An anchored cut (`pacing.ts`, `anchored` in `estimate.ts`) measures the plan from an earlier 429: the bucket was empty
 * then and now, so what the plan admitted between the two is what it refilled. These say which earlier 429 has
 * enough answers after it to anchor, and from when the callers used the pace after it. Pure: no state.
 */
import { asleepMs, type CutEvent } from './first-round.ts';

/** A 429 is judged against the latest of the last few 429s from which at least this many answers were admitted … */
const MIN_SAMPLE = 4;
/**
 * … and after a 429 that left every caller asleep in its backoff (a process of one caller: an n8n worker), enough to
 * span this long at the estimate, 4 to {@link MAX_ASLEEP_SAMPLE} answers. Processes sharing a key wake from their
 * 0.5 to 1 s sleeps in random order, and the first takes what the bucket stored meanwhile, so a share measured over a
 * few answers after it is that race (two workers pacing at 39 and 28 req/s measured 15 and 5): set from it, their
 * estimates kept the race's split for the rest of the run (rows 7l, 7m). Until then a 429 is judged against an
 * earlier one, or cuts the pace as with nothing to measure by, which keeps the paces' ratio instead.
 */
const ASLEEP_SAMPLE_MS = 800;
const MAX_ASLEEP_SAMPLE = 10;

/**
 * The latest kept 429 that can anchor a cut now: not slow start's, before `now`, with enough answers admitted since.
 *
 * @param events The 429s kept, oldest first.
 * @param admitted Answers admitted so far.
 * @param estimate The estimate, req/s.
 * @param now Epoch ms.
 * @returns The anchor, if any.
 */
export function findAnchor(events: readonly CutEvent[], admitted: number, estimate: number, now: number): CutEvent | undefined {
  return events.findLast((e) => !e.slowStart && admitted - e.admitted >= sample(e, estimate) && now > e.at);
}

/** Answers admitted since a 429 before it can anchor an estimate ({@link MIN_SAMPLE}, {@link ASLEEP_SAMPLE_MS}). */
function sample(e: CutEvent, estimate: number): number {
  return asleepMs(e) > 0 ? Math.max(MIN_SAMPLE, Math.min(MAX_ASLEEP_SAMPLE, (estimate * ASLEEP_SAMPLE_MS) / 1000)) : MIN_SAMPLE;
}

/**
 * Whether the callers kept up with the pace since an anchor is counted from when they began to use it: the anchor,
 * or, after a ramp's end, their first call if they slept in their retries' backoff and the bucket could not fill
 * meanwhile (so nothing spilled, and what was admitted since is the plan's rate). A lone caller (a script, an n8n
 * worker) sleeps 0.5 to 1 s after each 429; counted from the 429, that sleep read as a pace left unused, the cut
 * after a ramp's end leaned halfway to a pace the bucket's store had carried past the plan, and on 5/5 the estimate
 * came down over three more 429s, the last about 10 s in (2 % of answers in the steady window in 4 of 6 seeds, and
 * over sockets in 2 of 3 runs; now 1 % in every seed and run). A backoff the bucket fills in (a burst of half the
 * rate or less) spilled while the caller slept, so what was admitted reads low: counted from the 429, as before
 * (7/4 with one caller held 88 %, not 96 %, counted from the first call).
 *
 * @param anchor The earlier 429 the cut measures from.
 * @param admittedRate What the plan admitted since it, req/s (below the plan's rate only if the bucket spilled).
 * @param round What slow start's round admitted (`slowStartRound`), if its 429 is kept.
 * @returns When, and the calls sent by then.
 */
export function usedFrom(anchor: CutEvent, admittedRate: number, round: number | undefined): { at: number; sent: number } {
  const used = anchor.rampEnd ? anchor.usedFrom : undefined;
  const filled = used !== undefined && ((used.at - anchor.at) * admittedRate) / 1000 > (round ?? 0);
  return used && !filled ? used : { at: anchor.at, sent: anchor.sent };
}

/**
 * After a ramp's end whose 429 left every caller asleep in its backoff (a lone caller: a script, an n8n worker), what
 * the plan admitted from their first call after it, less what the bucket can have stored while they slept: a lower
 * bound on the plan's rate (or this client's share) that the sleep does not drag down. Counted from the 429 only, a
 * small bucket that filled and spilled during the sleep read as a plan that admitted nothing: one caller on 100/5
 * slept 0.64 s, then had 11 calls admitted in 72 ms, which read 15 req/s, and the cut set 48 (half the plan) for the
 * 10 s its probe took (row 7q: one caller on plans of 20 to 200 req/s with bursts of 2 to 10 held 59 to 97 % of the
 * plan, 7 of 20 plans at 90 % or more; now 79 to 98 %, 17 of 20, with the stall's probe in `curve.ts`). Slow start's
 * round emptied a full bucket, so what it admitted is at least the bucket's size; one call more for answers timed late
 * (as `bucket.ts`).
 *
 * @param anchor The earlier 429 the cut measures from.
 * @param admitted Answers admitted so far.
 * @param round What slow start's round admitted, if its 429 is kept.
 * @param now Epoch ms.
 * @returns Requests per second (0 when the callers did not sleep, or nothing bounds the bucket).
 */
export function admittedAwake(anchor: CutEvent, admitted: number, round: number | undefined, now: number): number {
  const used = anchor.rampEnd ? anchor.usedFrom : undefined;
  if (!used || asleepMs(anchor) === 0 || now <= used.at || round === undefined) return 0;
  return ((admitted - anchor.admitted - round - 1) * 1000) / (now - used.at);
}
