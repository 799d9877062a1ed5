/**
 * How fast to send with one API key, learned from 429s: pure arithmetic on the times passed in (no clock, no
 * timers; `limiter.ts` queues and sleeps).
 *
 * The plan is a token bucket (a rate and a burst) that nobody told us. What shapes the arithmetic:
 *
 * - Before the first 429 nothing is known, so nothing is paced (slow start, as TCP: `slow-start.ts`): a window caps
 *   the calls in flight and doubles with each round of successes (10, 20, 40 …) that used it. A generous plan is
 *   never waited on. After an idle second, slow start begins afresh.
 * - The first 429 ends slow start with a guess (what its round had admitted, over at least a second, counting the
 *   round's answers that come back after that 429, and not a call made alone just before the burst: see
 *   `SlowStart.burst`), and the pace ramps up from there, doubling at most every `RAMP_MS` while the callers use
 *   it (after a round that admitted one call, at each call admitted at the new spacing: `ramp.ts`), until the
 *   next 429, which puts the plan between what it admitted since the last doubling and half the pace, and no higher
 *   than a bucket of the size slow start met allows (`bucket.ts`: one that filled in the pause after slow start's
 *   429 carries the ramp a few doublings past the plan on what it stored). A 429 before
 *   the second doubling says only that the guess, which counts the burst as rate, was high: the pace is cut below
 *   the guess and climbs on in small steps, and the next 429 puts the plan at what it admitted between the two. With
 *   a bucket of about one call (it spills on any excess, so the ramp's rate says nothing) the ramp climbs again from
 *   half the pace in steps of {@link SEARCH_FACTOR} until the next 429: one more 429 finds the plan within a step.
 *   (One caller whose doubling the plan admitted at its new spacing before a 429 needs no search: the plan is at that
 *   pace, less the jitter of arrivals; see `#heldAlone`.)
 *   From there such a bucket's pace is held by the share of 429s (`hold.ts`): near the plan, jitter alone brings a
 *   429 now and then, and estimating the plan again at each of them ratcheted the pace down.
 * - A 429 means the bucket was empty at that moment. So between two 429s, the answers the plan admitted are what it
 *   refilled meanwhile: admitted ÷ time between them is the plan's rate, or this client's share of it when other
 *   processes use the key too, and the pace that met the 429 is above it. The estimate lies between the two (each
 *   case in `estimate.ts`), not at the goodput of the last moments, which a pause or an idle spell drags down; close
 *   to the admitted rate when the 429 came before the probe with the pace in use (the pace was not above the plan:
 *   another process's probe, or a cut that read high, emptied the bucket).
 * - After a 429 the pace starts again at (1 − `CUT`) × the estimate and grows back along a cubic of the time since
 *   (CUBIC, as the AWS SDK's adaptive retry mode uses it): flat near the estimate, where it spends most of its time,
 *   then probing above it, in units of the largest estimate held in the last two minutes (and for a share squeezed
 *   below what a 429 measured for it then, on that share's clock: `#probeMs`, `peak.ts`), so a plan that grew (or a
 *   process that left) is found, and a plan that shrank is probed on its own clock again. The
 *   pace regains the estimate no sooner than {@link MIN_REGAIN_MS} and {@link REGAIN_CALLS} calls after the 429, so
 *   even a slow plan sees few. A lone caller on a bucket of one call, whose 429s each cost it a backoff's sleep,
 *   probes more slowly still ({@link STALL_PROBE}).
 * - With nothing to measure by, a 429 cuts the pace to `MD_BETA` of itself (multiplicative decrease), and to half
 *   when two or more calls since the last 429 got nothing admitted: several processes on one key each learn their
 *   share alone (as TCP flows do), and those that start together back off to their shares within seconds.
 *
 * A configured rate is a ceiling: the burst goes at once, then calls are spaced by the rate (`ceiling.ts`); a 429
 * still cuts the pace below it, as for the default, so several processes each told the plan's rate share it instead
 * of fighting.
 */
import { largestRate } from './bucket.ts';
import { CeilingSlots, nextOnSchedule, type Ceiling } from './ceiling.ts';
import { estimateAfter, MIN_SEARCH_RATE, type Cut } from './estimate.ts';
import { Hold, HOLD_STEP, MIN_HOLD_RATE } from './hold.ts';
import { Peak } from './peak.ts';
import { Ramp, SEARCH_FACTOR } from './ramp.ts';
import { GUESS_MS, SlowStart } from './slow-start.ts';

/** How an answer counts: `admitted` by the plan (any status but 429), `throttled` (429), `lost` (no answer: unknown), `not-sent`. */
export type Answer = 'admitted' | 'throttled' | 'lost' | 'not-sent';

/** After a 429 the pace starts again at (1 − CUT) × the estimate, so the plan's bucket fills a little. */
export const CUT = 0.05;
/** The pace regains the estimate no sooner than this after a 429 … */
export const MIN_REGAIN_MS = 6000;
/** … and no sooner than this many calls at the estimated rate (what keeps 429s rare on slow plans). */
export const REGAIN_CALLS = 60;
/**
 * Callers that sent at least this share of the estimate since the anchor of a cut kept up with it. Below that the
 * bucket may have filled and spilled while they sent under the plan, so what it admitted reads low (7/3 with 2
 * callers held 89 % of the plan with 0.75 here).
 */
const KEPT_UP = 0.9;
/**
 * An estimate at most 1 / SQUEEZED of the largest that a 429 measured against an earlier one is a squeezed share: past
 * the regain it probes on the clock of the measured share (see `#probeMs`).
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
/** … only while the estimate is at least this share of the largest held lately (see `#probeMs`). */
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
/** Lowest pace: one of eight processes sharing a 1 req/s plan still gets its turn. */
const MIN_RATE = 0.05;
const MAX_RATE = 100_000;
/**
 * Below `MIN_SEARCH_RATE` (`estimate.ts`: there a 429 weighs much among the answers) no search …
 * … but for the 429 of a doubling at this pace or more (the first from slow start's guess of 1 req/s), after a slow
 * start whose callers went side by side and had one call admitted (see `#slowSearch`).
 */
const MIN_SLOW_SEARCH_RATE = 2;
/**
 * A 429 that came after the doubling had held starts the search from this pace (req/s; see `#lateSearch`): the search
 * climbs from what the ramp admitted, at least half of it, and the hold that follows starts from {@link MIN_HOLD_RATE}.
 */
const MIN_LATE_SEARCH_RATE = 2 * MIN_HOLD_RATE;
/**
 * Slow start's round met a bucket of about one call if what it admitted, less what such a bucket refilled while the
 * round went out, is no more than this (see `#lateSearch`).
 */
const ONE_CALL_ROUND = 1.5;
/** A 429 is judged against the latest of the last few 429s from which enough answers were admitted. */
const KEPT_EVENTS = 16;
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
/** The send rate is a moving average over about this long (ms). */
const SEND_RATE_MS = 1000;
/** A late timer may send this much early on the next slot (at most one interval), so lateness does not add up. */
const CATCH_UP_MS = 4;
/** Admitted answers kept since the last cut for `#bucketBound` (a ramp that runs longer than that goes unbounded). */
const MAX_ADMITS = 4096;

/** A 429 that began a cut: when, and how many answers had been admitted by then. */
interface Event {
  at: number;
  admitted: number;
  /** Calls sent by then. */
  sent: number;
  /** The 429 that ended slow start (no anchor for an estimate). */
  slowStart: boolean;
  /** Slow start's 429: what the burst that met it had admitted (its late answers too; see `SlowStart.burst`) … */
  burst: number;
  /** … and when that burst began … */
  burstFrom: number;
  /** … and whether its calls went one at a time (one caller): then it says little of the bucket's size. */
  burstAlone: boolean;
  /** The 429 ended a ramp (`ramp-end`). */
  rampEnd: boolean;
  /** Slow start's 429: its one late admitted answer so far was counted by the ramp as a one-call bucket's (`#lateAdmitted`). */
  lateLone?: boolean;
  /** When the callers began to use the pace after this 429 (the 429, or their first call if it came late), and the calls sent by then. */
  usedFrom?: { at: number; sent: number };
}

/** How long the callers slept in their backoff after this 429 (ms; 0 when one of them went on, or none came back yet). */
function asleepMs(e: Event): number {
  return e.usedFrom ? e.usedFrom.at - e.at : 0;
}

/**
 * The bucket's size that slow start's 429 says, had the bucket refilled at `rate` (req/s) while the burst went out:
 * what the burst admitted, less that refill.
 */
function burstBucket(e: Event, rate: number): number {
  return e.burst - (rate * (e.at - e.burstFrom)) / 1000;
}

/** The pace of one API key, for one process. Times are epoch milliseconds of whatever clock the caller uses. */
export class Pacing {
  /** The configured rate, if any. */
  readonly ceiling: Ceiling | undefined;
  /** Calls sent and not yet answered. */
  inFlight = 0;
  /** The plan's rate (or this client's share of it) as estimated at the last cut, requests per second; 0 before. */
  estimate = 0;
  readonly #slowStart = new SlowStart();
  /** The configured rate's burst allowance, before any 429. */
  readonly #ceilingSlots: CeilingSlots | undefined;
  /** Answers admitted since slow start's current spell began. */
  #admitted = 0;
  #sentTotal = 0;
  /**
   * The largest estimate a cut has measured lately (not slow start's guess, nor an unproven cut's, which count the
   * burst as rate): how big the plan has proven to be for this client (`peak.ts`: held two minutes).
   */
  readonly #peak = new Peak();
  /** The same for a 429 measured against an earlier one (`anchored`: what the plan admitted between them). */
  readonly #measuredPeak = new Peak();
  #events: Event[] = [];
  /** After the first 429 out of slow start, until the next: the pace steps up (`ramp.ts`). */
  readonly #ramp = new Ramp();
  /** The plan's bucket holds about one call (the search ran, see `#cut`): late timers are not made up for. */
  #oneCallBucket = false;
  /** On such a bucket past its search, the pace held by the share of 429s (`hold.ts`). */
  readonly #hold = new Hold();
  /** When each answer admitted since the last cut came (not those to calls sent before it): see `#bucketBound`. */
  #admits: number[] = [];
  /** The last cut was a ramp's end that `#bucketBound` lowered. */
  #bounded = false;
  /** Answers still due from calls in flight at the last cut: their 429s are that cut's, not new ones. */
  #recover = 0;
  /**
   * Calls sent while such answers were still due, not answered yet. They reach the plan behind the cut's own calls,
   * which are still emptying the bucket, so their 429s are that congestion too and cut nothing: over a network of 10
   * to 60 ms, 300 callers' slow start round met its 429 with 35 calls in flight, the first paced call met the round's
   * tail, its 429 halved slow start's guess, and the climb from there held 134/15 at 76 % of the plan for 20 s (2 runs
   * of 16 over loopback sockets, 2 seeds of 12 in virtual time; none since).
   */
  #tail = 0;
  #nextAt = 0;
  /** Calls sent per second, a moving average (see {@link SEND_RATE_MS}), as of `#sentAt`. */
  #sendRate = 0;
  #sentAt = 0;
  /** The spacing of the last paced send (ms): a ramp step brings the next slot forward by the difference. */
  #interval = 0;

  /** @param ceiling A configured rate, if any. */
  constructor(ceiling?: Ceiling) {
    this.ceiling = ceiling;
    this.#ceilingSlots = ceiling && new CeilingSlots(ceiling, CATCH_UP_MS);
  }

  /** True once calls are paced: a ceiling was given or a 429 was seen. Unpaced, the window decides. */
  get paced(): boolean {
    return this.ceiling !== undefined || this.#events.length > 0;
  }

  /**
   * The pace, requests per second (`undefined` while unpaced).
   *
   * @param now Epoch ms.
   * @returns Requests per second.
   */
  rate(now: number): number | undefined {
    const last = this.#events.at(-1);
    if (!last) return this.ceiling?.requestsPerSecond;
    if (this.#hold.on) return this.#withinBounds(Math.min(this.estimate, this.#used(now)));
    const since = now - last.at;
    const regainMs = this.#regainMs();
    const past = since > regainMs;
    const cube = ((since - regainMs) / (past ? this.#probeMs(regainMs, now) : regainMs)) ** 3;
    // Past the estimate the probe grows in units of the largest estimate this client has held lately: a share
    // squeezed by other processes, or left alone when they go, comes back as fast as a plan of that size would, not as
    // slowly as its share would (CUBIC's growth is in absolute units, not the window's, for the same reason). Short of
    // it, and on a plan that never proved bigger, in units of the estimate.
    const scale = past ? Math.max(this.estimate, this.#peak.value(now)) : this.estimate;
    const curve = this.#ramp.on ? this.estimate : this.estimate + CUT * scale * cube;
    return this.#withinBounds(Math.min(curve, this.#used(now)));
  }

  /**
   * A pace the callers did not use proves nothing: it grows no further than twice what they sent lately (as TCP
   * validates its window), so an idle spell or a backoff wait is not followed by a burst at an untested pace.
   */
  #used(now: number): number {
    return Math.max(this.estimate, 2 * this.sentRate(now));
  }

  /** A pace within the ceiling and the pacing's bounds. */
  #withinBounds(rate: number): number {
    return Math.min(this.ceiling?.requestsPerSecond ?? MAX_RATE, MAX_RATE, Math.max(MIN_RATE, rate));
  }

  /** The hold may start: a bucket of one call past its search, and the last 429 did not leave every caller asleep. */
  #mayHold(): boolean {
    return this.#oneCallBucket && !this.#ramp.on && this.#events.length > 0 && this.#stallMs() === 0;
  }

  /** How long after a 429 the curve regains an estimate (ms; the current one unless told). */
  #regainMs(estimate = this.estimate): number {
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
   * one call, or a small one), a clock of {@link STALL_PROBE} times that sleep (`#stallMs`).
   *
   * @param regainMs The regain's clock.
   * @param now Epoch ms.
   * @returns Milliseconds.
   */
  #probeMs(regainMs: number, now: number): number {
    const measured = this.#measuredPeak.value(now);
    if (measured >= SQUEEZED * this.estimate) return Math.min(regainMs, this.#regainMs(measured));
    // Not for an estimate well below the largest held lately: one that read low (a lone caller's 429 counts its own
    // sleep as time the plan admitted nothing) regrows on the regain's clock, where on the stall's it sat at 80 % of
    // 20/1 over sockets. A bigger bucket's largest is a ramp's end that the bucket's store carried past the plan (a
    // lone caller's round cannot bound it: `#bucketBound`), up to a doubling past it, so there the estimate is held
    // against half of it: 100/5 with network delays of 2 to 4 ms read 59 req/s after its sleep and sat there, the
    // largest 138 (row 7q's plans at that delay, 6 seeds).
    const peak = this.#peak.value(now);
    const near = this.estimate >= NEAR_PEAK * (this.#oneCallBucket ? peak : peak / 2);
    return near ? Math.max(regainMs, STALL_PROBE * this.#stallMs()) : regainMs;
  }

  /**
   * How long the last 429 left the pace unused where the bucket could not store it (ms): from the 429 to the callers'
   * next call when they all slept in their retries' backoff (a lone caller, an n8n worker), at most
   * {@link MAX_STALL_MS}, on a one-call bucket or one the sleep spilled ({@link SPILLED_BUCKETS}); 0 when another caller
   * went on, or the bucket stored what the plan refilled meanwhile. Such a 429 costs the callers that long, so their
   * probe waits {@link STALL_PROBE} times as long.
   */
  #stallMs(): number {
    const last = this.#events.at(-1);
    if (!last) return 0;
    const stall = Math.min(MAX_STALL_MS, asleepMs(last));
    const round = this.#slowStartRound;
    const spilled = round !== undefined && SPILLED_BUCKETS * round < (this.estimate * stall) / 1000;
    return this.#oneCallBucket || spilled ? stall : 0;
  }

  /**
   * Calls sent per second lately (a moving average).
   *
   * @param now Epoch ms.
   * @returns Requests per second.
   */
  sentRate(now: number): number {
    return this.#sendRate * Math.exp(-Math.max(0, now - this.#sentAt) / SEND_RATE_MS);
  }

  /** Unpaced: whether one more call may go now. A full round waits for all of its answers (`SlowStart`). */
  canSend(): boolean {
    return this.paced || this.#slowStart.canSend(this.inFlight);
  }

  /**
   * Milliseconds until the next paced call may go (0: now). Unpaced, always 0.
   *
   * @param now Epoch ms.
   * @returns Milliseconds to wait.
   */
  wait(now: number): number {
    if (!this.paced) return 0;
    const slots = this.#burstSlots;
    if (slots) return slots.wait(now);
    return Math.max(0, this.#nextAt - now);
  }

  /**
   * Counts a call as sent now (after {@link Pacing.wait} said 0, or after sleeping that long).
   *
   * @param now Epoch ms.
   */
  sent(now: number): void {
    // `#sentAt` is the last send (no spell yet: the first send starts one).
    const idle = this.#slowStart.unstarted || now - this.#sentAt >= GUESS_MS;
    if (this.#events.length === 0 && this.inFlight === 0 && idle) {
      this.#slowStart.restart(now);
      this.#admitted = 0;
    }
    this.#sendRate = this.sentRate(now) + 1000 / SEND_RATE_MS;
    this.#sentAt = now;
    this.#slowStart.sent(now, this.inFlight);
    this.#ramp.sent(now, this.#sentTotal, this.estimate);
    const last = this.#events.at(-1);
    if (last && !last.usedFrom) {
      // Two intervals or more after the 429, the callers were asleep in their retries' backoff (as `Ramp.sent`).
      const late = now - last.at >= (2 * 1000) / Math.max(MIN_RATE, this.estimate);
      last.usedFrom = { at: late ? now : last.at, sent: this.#sentTotal };
    }
    if (this.#recover > 0) this.#tail += 1;
    this.inFlight += 1;
    this.#sentTotal += 1;
    const slots = this.#burstSlots;
    if (slots) {
      slots.sent(now);
      return;
    }
    const rate = this.rate(now);
    if (rate === undefined) return;
    const interval = 1000 / rate;
    this.#interval = interval;
    // A bucket of about one call refuses any two calls closer than its interval: no catching up there.
    this.#nextAt = nextOnSchedule(this.#nextAt, now, interval, this.#oneCallBucket ? 0 : CATCH_UP_MS);
  }

  /** The configured rate's burst allowance while it governs (before any 429; after one, the pace does). */
  get #burstSlots(): CeilingSlots | undefined {
    return this.#events.length === 0 ? this.#ceilingSlots : undefined;
  }

  /**
   * Feeds back one answer.
   *
   * @param now Epoch ms.
   * @param answer How it counts.
   * @returns `true` when the next slot moved: a new 429 cut the pace (not a 429 of a call sent before the last
   *   cut), or an admitted answer brought it forward (the ramp stepped up, or a late answer of slow start's round
   *   raised its guess). A caller sleeping for its slot should look again.
   */
  answered(now: number, answer: Answer): boolean {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const stale = this.#ramp.answered();
    const old = this.#recover > 0;
    if (old) this.#recover -= 1;
    // Answers come back in any order: counted, not matched to their calls (an early tail answer counts as the cut's).
    const tail = !old && this.#tail > 0;
    if (tail) this.#tail -= 1;
    if (answer === 'not-sent') {
      this.#slowStart.notSent();
      return false;
    }
    if (answer === 'admitted') {
      this.#admitted += 1;
      if (!old && !tail) this.#holdAdmitted();
      if (!old && this.#admits.length < MAX_ADMITS) this.#admits.push(now);
      this.#slowStart.admitted(this.paced);
      const slot = this.#nextAt;
      if (!old || this.#lateAdmitted()) this.#step(now, stale);
      // A ramp's step on a one-call bucket, or a late answer that raised slow start's guess, brings the next slot
      // forward: a caller asleep until the old one looks again. Without that, with more callers than slow start's
      // window (the rest queued), the first paced call waited out the guess the 429 had made before the round's
      // admitted answers came back (a second at 1 req/s where they said 5).
      return this.#nextAt < slot;
    }
    if (answer !== 'throttled' || old || tail) return false;
    // The pace that met this 429, read before the hold runs: the curve's when the hold starts here, the held one
    // when it ends here (the curve's clock ran on from the 429 before the hold).
    const pace = this.rate(now);
    const held = this.#hold.on;
    if (this.#hold.throttled(this.#admitted, this.#mayHold())) {
      this.estimate = this.#withinBounds((held ? this.estimate : pace ?? this.estimate) * (1 - HOLD_STEP));
      return false;
    }
    this.#cut(now, pace);
    return true;
  }

  /**
   * An admitted answer to a call sent since the last cut: the hold begins right after a search (or after the cut that
   * ended it), and steps up.
   */
  #holdAdmitted(): void {
    // Held from the cut's estimate (the search's: the plan within a step), not from the curve's restart below it.
    if (!this.#hold.on && this.#mayHold()) this.#hold.begin(this.estimate);
    const factor = this.#hold.admitted(this.#admitted);
    if (factor !== 1) this.estimate = this.#withinBounds(this.estimate * factor);
  }

  /**
   * An admitted answer to a call sent before the last cut. Answers come back in any order, so the 429 that ended
   * slow start may arrive before most of its round's admitted answers (a 5/5 plan read as 1 req/s, a burst of 5 as
   * one of 1, and 100 calls took 1.17× the plan's floor): until the ramp's first step, slow start's guess and what it
   * says about the bucket count them, and the ramp's rate does not (a 1/2 plan's burst read as 2 req/s). The one
   * exception is the lone answer of a one-call bucket: the ramp's first call waits a whole interval of the guess
   * (1 s at 1 req/s), so without it the ramp's rate reads half the plan.
   *
   * @returns Whether the ramp counts it.
   */
  #lateAdmitted(): boolean {
    const first = this.#events[0];
    if (this.#events.length !== 1 || !first?.slowStart || this.#ramp.steps > 0) return true;
    first.admitted += 1;
    first.burst += 1;
    // The round's late answers read as a one-call bucket's lone answer until a second came: then the ramp's rate
    // does not count the first either. Counted, a 1/2 plan whose 429 came back before both admitted answers read as
    // 2 req/s at the ramp's first 429 (a rate of one answer over 0.5 s), and its blind cuts after that settled at 0.89.
    if (first.burst === 2 && first.lateLone) this.#ramp.uncount();
    first.lateLone = first.burst <= 1;
    const guess = (first.burst * 1000) / Math.max(GUESS_MS, first.at - first.burstFrom);
    this.estimate = Math.min(this.ceiling?.requestsPerSecond ?? MAX_RATE, Math.max(this.estimate, guess));
    // Nothing sent since that 429: the first call waits one interval of the new guess, not of the old.
    if (this.#sentTotal === first.sent) this.#nextAt = Math.min(this.#nextAt, first.at + 1000 / this.estimate);
    return first.burst <= 1;
  }

  /**
   * An admitted answer while the ramp runs: the pace steps up when the ramp says so (`Ramp.step`), and on a bucket
   * of one call the next slot comes forward to the new spacing at once.
   */
  #step(now: number, stale: boolean): void {
    if (!this.#ramp.on) return;
    const oneCall = this.#oneCallRound;
    const input = { sentTotal: this.#sentTotal, inFlight: this.inFlight, estimate: this.estimate, oneCall, stale };
    if (!this.#ramp.step(now, input)) return;
    this.estimate = Math.min(MAX_RATE, this.estimate * this.#ramp.factor);
    if (!oneCall || this.#interval === 0) return;
    const rate = this.rate(now);
    if (rate === undefined) return;
    this.#nextAt += 1000 / rate - this.#interval;
    this.#interval = 1000 / rate;
  }

  /**
   * Slow start's round ended with one call admitted: a bucket of about one call (or a one-call share of a bigger
   * one). A call made less than a second before the burst is in the round too, so after one the round reads two.
   */
  get #oneCallRound(): boolean {
    const first = this.#events[0];
    return first !== undefined && first.slowStart && first.burst <= 1;
  }

  /**
   * A 429: estimate the plan, and start the curve again below it. With an earlier 429 that has enough admitted
   * answers after it, the plan lies between the rate admitted since then and the pace that met this one; without,
   * the estimate is a share of that pace (multiplicative decrease). The first 429 out of slow start knows only the
   * burst: the pace ramps up from there, and that 429 is no anchor (the ramp sends slower than the plan at first).
   *
   * @param now Epoch ms.
   * @param pace The pace that met this 429 (`undefined` while unpaced).
   */
  #cut(now: number, pace: number | undefined): void {
    // Nothing admitted from two or more calls since the last 429: that cut was far from enough (or other processes
    // share the key).
    const last = this.#events.at(-1);
    const stuck = last !== undefined && this.#admitted === last.admitted && this.#sentTotal - last.sent >= 2;
    const anchor = this.#events.findLast((e) => !e.slowStart && this.#admitted - e.admitted >= this.#sample(e) && now > e.at);
    // The first 429 (out of slow start, or out of a configured rate's burst) knows only what was admitted so far.
    const first = this.#events.length === 0;
    const ramped = this.#ramp.on && !first;
    const rampRate = this.#ramp.rate(now);
    const factor = this.#ramp.factor;
    const steps = this.#ramp.steps;
    const rampAdmitted = this.#ramp.admitted;
    // A bucket of about one call (at most two calls admitted out of slow start: the one, and its refill while a slow
    // round was on its way, as over sockets on a busy machine; and a doubling that met a 429 at once) spills on any
    // excess, so the ramp's rate says nothing: the plan lies between half the pace and the pace.
    // (A bigger bucket drained by slow start also meets a 429 at once, but its first 429 came after its burst.) The
    // ramp then climbs again from that half in steps of SEARCH_FACTOR, so the next 429, the search's only cost, finds
    // the plan within one step. Below MIN_SEARCH_RATE that second 429 would cost more than 2 % of a minute's
    // answers, and the curve takes over at once, but where `#slowSearch` says the 429 came early enough to spare it.
    // A 429 before the ramp's second doubling (the pace was still slow start's guess, or its double) is unproven: the
    // guess counts the burst as rate, so the 429 says only that the plan is below the pace (`estimate.ts`), and the
    // ramp climbs on from the cut in the search's steps; the next 429 ends that climb. At the guess itself at any
    // pace: below MIN_SEARCH_RATE, taken as a ramp's end, half the guess held 3/4 at 2 req/s and 2/3 at 1.5 (67 and
    // 75 % of the plan with 5 to 500 callers, no 429 to correct it for the curve's 60 calls, 30 to 40 s).
    const unproven = ramped && factor === 2 && (this.#events[0]?.burst ?? 0) > 2
      && (steps === 0 || (steps === 1 && (pace ?? 0) >= MIN_SEARCH_RATE));
    // A doubling that held, and met a 429 only later, searches too where slow start's round read such a bucket once
    // its refills are counted (`#lateSearch`).
    const atOnce = rampAdmitted <= 1 && (this.#events[0]?.burst ?? 0) <= 2
      && ((pace ?? 0) >= MIN_SEARCH_RATE || this.#slowSearch(pace ?? 0));
    const search = !unproven && ramped && factor === 2 && (atOnce || this.#lateSearch(pace ?? 0));
    const held = !search && !unproven && ramped && factor === 2 && this.#heldAlone(pace ?? 0, rampAdmitted);
    if (search || held) this.#oneCallBucket = true;
    const climbed = ramped && factor !== 2 && this.#ramp.climbing;
    this.#ramp.restart(now, this.#sentTotal, first || search || unproven, first ? 2 : SEARCH_FACTOR, unproven);
    const burst = this.#slowStart.burst(this.#admitted);
    const admittedSince = (e: Event): number => ((this.#admitted - e.admitted) * 1000) / (now - e.at);
    let cut: Cut;
    if (first || pace === undefined) {
      cut = { kind: 'slow-start', admitted: burst.admitted, spanMs: Math.max(GUESS_MS, now - burst.from), alone: burst.alone };
    }
    else if (unproven) cut = { kind: 'unproven', pace, steps, rampRate };
    // (The anchor of a climb's end is its unproven 429: that comes only right after slow start's, which is no anchor.)
    else if (climbed && anchor) cut = { kind: 'climb-end', pace, admittedRate: admittedSince(anchor) };
    else if (held) cut = { kind: 'held', pace };
    else if (ramped) cut = { kind: 'ramp-end', pace, factor, rampRate, searched: this.#oneCallBucket && factor === SEARCH_FACTOR };
    else if (anchor) {
      const from = this.#usedFrom(anchor, admittedSince(anchor));
      const keptUp = this.#sentTotal - from.sent >= (KEPT_UP * this.estimate * (now - from.at)) / 1000;
      // Before the probe: the estimate is still the one the pace ran on, so this is the regain the curve was on.
      const beforeProbe = last !== undefined && now - last.at < this.#regainMs() && keptUp;
      const admittedRate = Math.max(admittedSince(anchor), this.#admittedAwake(anchor, now));
      cut = { kind: 'anchored', pace, admittedRate, beforeProbe };
    }
    // Just past a ramp's end that the bucket bounded, that bound (within a call) met this 429: the plan is just below.
    else if (this.#bounded && !stuck) cut = { kind: 'past-bound', pace };
    else cut = { kind: 'blind', pace, stuck };
    const ceiling = this.ceiling?.requestsPerSecond ?? MAX_RATE;
    const bounded = (rate: number): number => Math.min(ceiling, Math.max(MIN_RATE, rate));
    const reach = estimateAfter(cut);
    // A ramp's end may owe its reach to what the bucket stored: the estimate is no more than a bucket of the size slow
    // start met allows. The peak keeps the reach (the plan did admit the pace below it, stored calls and all): it sets
    // only how fast the probe grows, and bounded there too, squeezed shares came back slower (row 7m, measured before
    // one-caller processes were left unbounded: 45 of 80 runs, not 50).
    const estimate = cut.kind === 'ramp-end' ? Math.min(reach, this.#bucketBound(now, cut.pace)) : reach;
    this.#bounded = estimate < reach;
    this.estimate = bounded(estimate);
    if (cut.kind !== 'slow-start' && cut.kind !== 'unproven') this.#peak.measured(bounded(reach), now);
    if (cut.kind === 'anchored') this.#measuredPeak.measured(this.estimate, now);
    this.#events.push({
      at: now, admitted: this.#admitted, sent: this.#sentTotal, slowStart: first, burst: burst.admitted, burstFrom: burst.from,
      burstAlone: burst.alone, rampEnd: cut.kind === 'ramp-end' || cut.kind === 'held',
    });
    if (this.#events.length > KEPT_EVENTS) this.#events.shift();
    this.#recover = this.inFlight;
    this.#tail = 0;
    this.#admits = [];
    // The first call after the cut waits one interval at the new pace.
    this.#nextAt = now + 1000 / (this.rate(now) ?? MIN_RATE);
  }

  /** Answers admitted since a 429 before it can anchor an estimate ({@link MIN_SAMPLE}, {@link ASLEEP_SAMPLE_MS}). */
  #sample(e: Event): number {
    return asleepMs(e) > 0 ? Math.max(MIN_SAMPLE, Math.min(MAX_ASLEEP_SAMPLE, (this.estimate * ASLEEP_SAMPLE_MS) / 1000)) : MIN_SAMPLE;
  }

  /**
   * Below {@link MIN_SEARCH_RATE}, whether a ramp's 429 still starts the search: on a 3/1 plan the ramp doubles from
   * slow start's guess of 1 req/s to 2, then 4, meets its 429 there, and without a search held 2 req/s (67 % of the
   * plan, every caller count, row 7j); searching, 97 %, its one more 429 in the first 5 s. Only where the pace that
   * met the 429 was {@link MIN_SLOW_SEARCH_RATE} or more and slow start's round had exactly one call admitted out of
   * several in flight.
   *
   * From the first doubling, to 2 req/s, too (2026-11-29): on a 2/1 plan that doubling lands on the plan itself, and
   * whether the jitter of arrivals refused its first call decided the run. Refused and not searching, the curve held
   * half the plan for minutes (48 % in 2 seeds of 3 with 10 to 500 callers, row 7a; 60 calls took 2.04× their
   * floor in one seed of 7g); searching, 93 to 98 % (1.14×). What that costs: the first doubling also meets the 429s
   * of processes that start together on one key, and they search too (5/5 shared by 8 processes of 10 callers, 2.9 →
   * 6.5 % 429s in virtual time; over sockets that cell was short already; 7j several processes 1,014 → 1,006 runs);
   * and on 1/1, whose plan is the doubling's lower half, the search's one 429 and its backoff cost a short batch about
   * a second (11 calls 1.09 → 1.18× their floor, 30 calls 1.04 → 1.07×).
   *
   * Not for one caller: one-caller processes sharing a plan of 3 to 10 req/s look the same as one caller alone on a
   * one-call bucket, and searching they pushed one another over the 3 % line (7j several processes 1,020 → 1,001
   * runs; again on 2026-11-29, 1,014 → 998, and 5/5 shared by 4 one-caller processes 2.0 → 4.0 % 429s), so a lone
   * caller on 3/1 still holds two thirds of it (on 2/1 and 4/1 its ramp's doublings, from a guess just under 1 req/s,
   * end just under the plan: `LONE_GUESS` in `estimate.ts`). Processes of several callers whose slow
   * start met such a round on a shared slow plan search too (4/2 shared by 3 processes of 10 callers met in 5 seeds
   * of 12 before, none now; bench/README "Bursts of 1").
   *
   * @param pace The pace that met the 429, req/s.
   * @returns Whether the search runs.
   */
  #slowSearch(pace: number): boolean {
    const first = this.#events[0];
    return pace >= MIN_SLOW_SEARCH_RATE && first?.burst === 1 && !first.burstAlone;
  }

  /**
   * Whether a ramp's 429 that came after its doubling had held (more than one call admitted at the doubled pace)
   * starts the search. On a bucket of about one call the doubled pace was then at or below the plan, and the 429 came
   * from the jitter of the sends' arrival, which refuses a call now and then at any pace near such a plan. Over
   * sockets 200/1 doubled to 192 req/s (or to 128), met such a 429 a second or two later, and slow start's round of 50
   * callers had read three calls admitted (the one and two refills while the round went out): it was taken for a bigger
   * bucket, the ramp ended at the 429, and every later jitter 429 cut the pace again, to 31 to 51 % of the plan with
   * 0.1 to 0.9 % 429s, where a sender at a fixed spacing held 87 %. Searching, 49 to 76 % (`bench/README.md`,
   * "The late search"). Only from {@link MIN_LATE_SEARCH_RATE}, for callers that went side by side (a lone caller's
   * round says nothing of the bucket), where slow start's round admitted no more than {@link ONE_CALL_ROUND} over what
   * a one-call bucket refilled at this pace while it went out, and no more than half the calls it sent: over the 20 to
   * 120 ms rounds of internet latency the refill alone read a bucket of ten as one (20/10 with 5 callers 0.5 → 1.5 %
   * 429s in row 7p). Counting the refill at half the pace instead (the least the plan can be) missed 200/1 over sockets
   * in 2 runs of 3, where the round took 15 to 37 ms and read 3 to 5 calls. A bucket of more calls stays ended at its
   * 429.
   *
   * @param pace The pace that met the 429, req/s.
   * @returns Whether the search runs.
   */
  #lateSearch(pace: number): boolean {
    const first = this.#events[0];
    if (!first?.slowStart || first.burstAlone || pace < MIN_LATE_SEARCH_RATE || 2 * first.burst > first.sent) return false;
    return burstBucket(first, pace) <= ONE_CALL_ROUND;
  }

  /**
   * Whether a doubling's 429 says the plan is just at the pace (`held` in `estimate.ts`): one caller whose slow start
   * had one call admitted (a bucket of one call) sent two calls or more at the doubled spacing, and the plan admitted
   * them before the 429. Only from {@link MIN_LATE_SEARCH_RATE}, as the late search: one-caller processes sharing a key
   * look the same to each, and on slow plans their doublings hold on what the bucket stored, not on the plan's spacing
   * (a guard by reasoning: without it the sweeps read the same). The bucket is
   * then taken for one call, as after a search: no catching up on late timers (after the backoff's sleep the next
   * call went 4 ms early, 31 ms after the retry on a 32/1 plan, and its 429 cut the pace by 0.7), and the probe on the
   * sleep's clock.
   *
   * @param pace The pace that met the 429, req/s.
   * @param rampAdmitted Calls the plan admitted since the ramp's last step.
   * @returns Whether the cut is `held`.
   */
  #heldAlone(pace: number, rampAdmitted: number): boolean {
    const first = this.#events[0];
    return rampAdmitted >= 2 && pace >= MIN_LATE_SEARCH_RATE && first !== undefined && first.slowStart && first.burstAlone
      && first.burst <= 1;
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
   * @returns When, and the calls sent by then.
   */
  #usedFrom(anchor: Event, admittedRate: number): { at: number; sent: number } {
    const used = anchor.rampEnd ? anchor.usedFrom : undefined;
    const size = this.#slowStartRound ?? 0;
    const filled = used !== undefined && ((used.at - anchor.at) * admittedRate) / 1000 > size;
    return used && !filled ? used : { at: anchor.at, sent: anchor.sent };
  }

  /**
   * After a ramp's end whose 429 left every caller asleep in its backoff (a lone caller: a script, an n8n worker), what
   * the plan admitted from their first call after it, less what the bucket can have stored while they slept: a lower
   * bound on the plan's rate (or this client's share) that the sleep does not drag down. Counted from the 429 only, a
   * small bucket that filled and spilled during the sleep read as a plan that admitted nothing: one caller on 100/5
   * slept 0.64 s, then had 11 calls admitted in 72 ms, which read 15 req/s, and the cut set 48 (half the plan) for the
   * 10 s its probe took (row 7q: one caller on plans of 20 to 200 req/s with bursts of 2 to 10 held 59 to 97 % of the
   * plan, 7 of 20 plans at 90 % or more; now 79 to 98 %, 17 of 20, with {@link SPILLED_BUCKETS}). Slow start's round
   * emptied a full bucket, so what it admitted is at least the bucket's size; one call more for answers timed late (as
   * `bucket.ts`).
   *
   * @param anchor The earlier 429 the cut measures from.
   * @param now Epoch ms.
   * @returns Requests per second (0 when the callers did not sleep, or nothing bounds the bucket).
   */
  #admittedAwake(anchor: Event, now: number): number {
    const used = anchor.rampEnd ? anchor.usedFrom : undefined;
    const round = this.#slowStartRound;
    if (!used || asleepMs(anchor) === 0 || now <= used.at || round === undefined) return 0;
    return ((this.#admitted - anchor.admitted - round - 1) * 1000) / (now - used.at);
  }

  /**
   * What slow start's round admitted (its late answers too), when a 429 ended it: the round emptied a full bucket, so
   * this is at least the bucket's size (and more by what refilled while the round went out).
   */
  get #slowStartRound(): number | undefined {
    const first = this.#events[0];
    return first?.slowStart ? first.burst : undefined;
  }

  /**
   * The largest rate at which a bucket of the size slow start met would be empty at this 429, having admitted what it
   * did since the last one (`bucket.ts`); the pace when that cannot be told. Slow start's round emptied the bucket, so
   * what the round admitted (its late answers too) is the bucket's size plus what refilled while the round went out.
   * Not when the round's calls went one at a time (one caller, as an n8n worker): each refilled while the next
   * waited, so the count is mostly rate, and bounded by it two one-caller processes on 20/20 held 85 % of the plan in
   * 16 of row 7m's 20 runs, not 18 (7m 50 of 80, 7k 6 of 12; 52 and 7 unbounded, as before the bound).
   *
   * @param now Epoch ms.
   * @param pace The pace that met this 429, req/s.
   * @returns Requests per second.
   */
  #bucketBound(now: number, pace: number): number {
    const first = this.#events[0];
    const last = this.#events.at(-1);
    if (!first?.slowStart || first.burstAlone || !last || this.#admits.length >= MAX_ADMITS) return pace;
    return largestRate(this.#admits, last.at, now, (rate) => Math.max(1, burstBucket(first, rate)), pace);
  }

  /**
   * A key-wide pause began: the pace starts again at its end (so the end of a pause is not a burst).
   *
   * @param until End of the pause, epoch ms.
   */
  pausedUntil(until: number): void {
    this.#nextAt = Math.max(this.#nextAt, until);
    this.#ceilingSlots?.clear();
  }
}
