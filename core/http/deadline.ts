/**
 * Time limits of one call, as abort signals: the call's overall deadline (every attempt, backoff wait and body read)
 * and each attempt's timeout (headers and, for JSON, the whole body). Each fires by aborting its own controller
 * with the typed error the call should end with, so whatever was waiting (a fetch, a body read, a backoff sleep)
 * rejects with it; `clear` stops the timer once the work it bounds is done (a PDF stream then flows on its own).
 */

/** A timer that aborts a signal. */
export interface AbortTimer {
  /** Aborts with the error from `reason()` when the time is up. */
  readonly signal: AbortSignal;
  /** Whether it fired. */
  fired(): boolean;
  /** Stops the timer (idempotent); a signal that already fired stays aborted. */
  clear(): void;
}

/**
 * @param ms How long until it fires.
 * @param reason Builds the error to abort with, when it fires.
 * @returns The timer.
 */
export function abortAfter(ms: number, reason: () => unknown): AbortTimer {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  return {
    signal: controller.signal,
    fired: () => controller.signal.aborted,
    clear: () => clearTimeout(timer),
  };
}

/**
 * @param signals Signals to follow; `undefined` ones are left out.
 * @returns One signal that aborts with the first one's reason.
 */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length === 1 ? present[0]! : AbortSignal.any(present);
}
