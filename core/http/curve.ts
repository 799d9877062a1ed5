/**
 * The pace after a cut (`pacing.ts`): it starts again at (1 − {@link CUT}) × the estimate and grows back along a cubic
 * of the time since the 429 (CUBIC, as the AWS SDK's adaptive retry mode uses it): flat near the estimate, where it
 * spends most of its time, then probing above it. Pure arithmetic on the figures passed in.
 *
 * The pace regains the estimate no sooner than {@link MIN_REGAIN_MS} and {@link REGAIN_CALLS} calls after the 429, so
 * even a slow plan sees few 429s. Past the estimate it probes in units of the largest estimate held in the last two
 * minutes, on a clock that is the regain's, but for a squeezed share (on that share's clock) and for callers that a
 * 429 left asleep on a bucket their sleep spilled (slower: {@link STALL_PROBE}). See {@link probeMs}.
 */
import { asleepMs, type CutEvent } from './first-round.ts';

/** After a 429 the pace starts again at (1 − CUT) × the estimate, so the plan's bucket fills a little. */
export const CUT = 0.05;
/** The pace regains the estimate no sooner than this after a 429 … */
export const MIN_REGAIN_MS = 6000;
/** … and no sooner than this many calls at the estimated rate (what keeps 429s rare on slow plans). */
export const REGAIN_CALLS = 60;
/**
 * An estimate at most 1 / SQUEEZED of the largest that a 429 measured against an earlier one is a squeezed share: past
 * the regain it probes on the clock of the measured share (see {@link probeMs}).
 */
const SQUEEZED = 1.5;
/**
 * On a one-call bucket, a 429 after which the callers all slept in their backoff (a lone caller) cost them that sleep,
 * 0.5 to 1 s of the plan: past the regain, its probe runs on a clock this many times that sleep, so its 429s, one per
 * probe, cost about 2 % of the plan. On the regain's clock (6 s at 10 to 60 req/s) one caller met one every 12 s and
 * held 83 to 88 % of 8/1 to 60/1 (row 7j, 0 of 24 runs; now 21), 89 % of 7/1 over two minutes (now 95 %), and over
 * sockets 20/1 a median of 84 % in 6 runs (now 91 %).
 */
const STALL_PROBE = 45;
/** … only while the estimate is at least this share of the largest held lately (see {@link probeMs}). */
const NEAR_PEAK = 0.9;
/**
 * The same on a bigger bucket whose plan refilled more than this many bucketfuls while the callers slept (slow start's
 * round counts as a bucketful: it is at least one). What fills the bucket in a sleep is stored and used after it; the
 * rest spills, so there the sleep costs as much as on a one-call bucket (one caller on 100/5 slept 0.75 s, 75 calls,
 * of which 5 were stored). On the regain's clock one caller on plans of 100 to 200 req/s with bursts of 2 to 10 held
 * 84 to 90 % (row 7q); on this one, 9 of those 12 plans 91 to 96 %. At one bucketful 50/25 with one caller, whose cut
 * read low, held 78 %, not 93 % (row 7a); at three, 100/10 89 %.
 */
const SPILLED_BUCKETS = 4;
/** A sleep counts up to the default first backoff (1 s at most): callers away longer were idle, not stalled by the 429. */
const MAX_STALL_MS = 1000;

/**
 * A probe that ran to this multiple of the estimate with no 429 for {@link QUIET_REGAINS} regains ramps again
 * ({@link rampsAgain}) …
 */
const RAMP_AGAIN = 1.25;
const QUIET_REGAINS = 2;
/** … in steps of this (the first ramp doubles; from a pace that held, half as bold). */
export const RAMP_AGAIN_FACTOR = 1.5;

/** What the curve is drawn from. Rates in requests per second. */
export interface CurveInput {
  /** The estimate set at the last cut. */
  estimate: number;
  /** The largest estimate a cut measured lately (`peak.ts`). */
  peak: number;
  /** The largest an anchored cut (what the plan admitted between two 429s) measured lately. */
  measuredPeak: number;
  /** The plan's bucket holds about one call (the search ran). */
  oneCallBucket: boolean;
  /** See {@link stallMs}. */
  stallMs: number;
}

/**
 * The curve's pace (unbounded), `sinceMs` after the last cut.
 *
 * @param sinceMs Milliseconds since the 429 that cut.
 * @param input The estimate and what sets the probe.
 * @returns Requests per second.
 */
export function curve(sinceMs: number, input: CurveInput): number {
  const regain = regainMs(input.estimate);
  const past = sinceMs > regain;
  const cube = ((sinceMs - regain) / (past ? probeMs(regain, input) : regain)) ** 3;
  // Past the estimate the probe grows in units of the largest estimate this client has held lately: a share
  // squeezed by other processes, or left alone when they go, comes back as fast as a plan of that size would, not as
  // slowly as its share would (CUBIC's growth is in absolute units, not the window's, for the same reason). Short of
  // it, and on a plan that never proved bigger, in units of the estimate.
  const scale = past ? Math.max(input.estimate, input.peak) : input.estimate;
  return input.estimate + CUT * scale * cube;
}

/** How long after a 429 the curve regains an estimate (ms). */
export function regainMs(estimate: number): number {
  return Math.max(MIN_REGAIN_MS, (REGAIN_CALLS / estimate) * 1000);
}

/**
 * The clock of the probe past the estimate (ms; the cube counts the time past the regain in these): the regain's own,
 * but for a squeezed share (an estimate at most 1 / {@link SQUEEZED} of the largest that a 429 measured against an
 * earlier one in the last two minutes: `peak.ts`) the regain that measured share would have. Such a cut measured what
 * the plan admitted to this client, so the plan once gave it that much: other processes took it since, or still hold
 * it, and when they go (an n8n worker done with its items) the share left behind regains it as fast as that share
 * would, where on its own clock, 60 of its own calls, a small share crept back over minutes (four one-caller
 * processes × 250 calls on 20/20, row 7m: one of them went on alone at 1 to 2 req/s for two minutes). A slow plan
 * alone never measured more than it has, so its 429s keep the regain's budget; slow start's guess and a ramp's end,
 * which count a burst as rate, do not count here. A plan the provider lowered looks the same to one client, hence the
 * hold. And where the last 429 left the callers asleep in their backoff on a bucket that their sleep spilled (one of
 * one call, or a small one), a clock of {@link STALL_PROBE} times that sleep ({@link stallMs}).
 */
function probeMs(regain: number, input: CurveInput): number {
  if (input.measuredPeak >= SQUEEZED * input.estimate) return Math.min(regain, regainMs(input.measuredPeak));
  // Not for an estimate well below the largest held lately: one that read low (a lone caller's 429 counts its own
  // sleep as time the plan admitted nothing) regrows on the regain's clock, where on the stall's it sat at 80 % of
  // 20/1 over sockets. A bigger bucket's largest is a ramp's end that the bucket's store carried past the plan (a
  // lone caller's round cannot bound it: `Pacing`'s bucket bound), up to a doubling past it, so there the estimate is
  // held against half of it: 100/5 with network delays of 2 to 4 ms read 59 req/s after its sleep and sat there, the
  // largest 138 (row 7q's plans at that delay, 6 seeds).
  const near = input.estimate >= NEAR_PEAK * (input.oneCallBucket ? input.peak : input.peak / 2);
  return near ? Math.max(regain, STALL_PROBE * input.stallMs) : regain;
}

/**
 * How long the last 429 left the pace unused where the bucket could not store it (ms): from the 429 to the callers'
 * next call when they all slept in their retries' backoff (a lone caller, an n8n worker), at most
 * {@link MAX_STALL_MS}, on a one-call bucket or one the sleep spilled ({@link SPILLED_BUCKETS}); 0 when another caller
 * went on, or the bucket stored what the plan refilled meanwhile. Such a 429 costs the callers that long, so their
 * probe waits {@link STALL_PROBE} times as long.
 *
 * @param last The last 429 that cut.
 * @param round What slow start's round admitted (`slowStartRound`), if its 429 is kept.
 * @param estimate The estimate, req/s.
 * @param oneCallBucket The plan's bucket holds about one call.
 * @returns Milliseconds.
 */
export function stallMs(last: CutEvent | undefined, round: number | undefined, estimate: number, oneCallBucket: boolean): number {
  if (!last) return 0;
  const stall = Math.min(MAX_STALL_MS, asleepMs(last));
  const spilled = round !== undefined && SPILLED_BUCKETS * round < (estimate * stall) / 1000;
  return oneCallBucket || spilled ? stall : 0;
}

/**
 * Whether the ramp runs again from the curve's pace: the probe ran to {@link RAMP_AGAIN} times the estimate, every
 * call admitted, and no 429 came for {@link QUIET_REGAINS} regains, so the plan has more than the estimate says (the
 * provider raised it, or another process on the key left). The cube alone took 10 to 40 s or more to find it, in
 * units of the old plan (row 7n: 5/5 raised to 20/20 with 10 callers, 75 % of the new plan in the first minute; now
 * 101 %); ramping in steps of {@link RAMP_AGAIN_FACTOR} it takes a few seconds. Doubling there put 50/100 with 500
 * callers at internet latency at 5.9 % 429s (row 7p). Not for callers that the last 429 left asleep in their backoff
 * (a lone caller): their estimate reads low by the sleep, so their probe passes 1.25× on plans it already holds, and
 * ramping (tried with doubling) cost them (one caller on 50/25 93 → 89 %, 200/100 92 → 84 %, row 7a).
 *
 * @param sinceMs Milliseconds since the last cut.
 * @param pace The curve's pace now, req/s.
 * @param estimate The estimate, req/s.
 * @param asleepMs How long the callers slept after the last 429 (`asleepMs` in `first-round.ts`).
 * @returns `true` when the ramp runs again.
 */
export function rampsAgain(sinceMs: number, pace: number, estimate: number, asleepMs: number): boolean {
  return asleepMs === 0 && pace >= RAMP_AGAIN * estimate && sinceMs >= QUIET_REGAINS * regainMs(estimate);
}
