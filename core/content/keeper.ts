/**
 * Keeps a playing content URL fresh. The spec: fetch the URL at the moment of use, never persist it, and call
 * refresh-url when `expires_at` minus now is under 60 seconds. The keeper holds the record in its own memory only.
 */
import type { ContentUrlKeeper } from '../types/calls.ts';
import type { ModuleContent } from '../types/records.ts';
import { expiresAtMs } from './module-content.ts';

/** Refresh when fewer than this many milliseconds are left (spec: "under 60 seconds"). */
export const REFRESH_BEFORE_EXPIRY_MS = 60_000;

/**
 * The shortest wait between scheduled refreshes, so a service that keeps issuing URLs already inside the
 * refresh window cannot make the keeper call it in a tight loop.
 */
export const MIN_SCHEDULE_DELAY_MS = 1_000;

/** What the keeper needs: the two calls, the clock and the (abortable) sleep. */
export interface KeeperDeps {
  /** First access: `GET /modules/{id}/content` (creates the progress record on first access, as intended). */
  fetchContent(signal?: AbortSignal): Promise<ModuleContent>;
  /** `GET /modules/{id}/refresh-url`. */
  refreshUrl(signal?: AbortSignal): Promise<ModuleContent>;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  onRefresh?: (content: ModuleContent) => void;
  autoRefresh?: boolean;
  /** The caller's signal: aborting it stops the keeper too. */
  signal?: AbortSignal;
}

/**
 * @param deps Calls, clock and options.
 * @returns A {@link ContentUrlKeeper}. Nothing is requested until the first `current()`.
 * @example
 * ```ts
 * const keeper = client.modules.keepFresh(42, { userId, autoRefresh: true, onRefresh: (c) => player.src = c.content_url });
 * player.src = (await keeper.current()).content_url;
 * // … when the player closes:
 * keeper.stop();
 * ```
 */
export function createContentUrlKeeper(deps: KeeperDeps): ContentUrlKeeper {
  const stopper = new AbortController();
  // stop() cancels the timer only; current() keeps working on demand afterwards.
  const timerSignal = deps.signal ? AbortSignal.any([deps.signal, stopper.signal]) : stopper.signal;
  const signal = deps.signal;
  let record: ModuleContent | undefined;
  // Concurrent current() calls share one request instead of each refreshing.
  let inFlight: Promise<ModuleContent> | undefined;

  const needsRefresh = (content: ModuleContent): boolean =>
    expiresAtMs(content) - deps.now() < REFRESH_BEFORE_EXPIRY_MS;

  const refresh = async (): Promise<ModuleContent> => {
    const fresh = await deps.refreshUrl(signal);
    record = fresh;
    deps.onRefresh?.(fresh);
    schedule(fresh);
    return fresh;
  };

  const load = async (): Promise<ModuleContent> => {
    if (record === undefined) {
      const first = await deps.fetchContent(signal);
      record = first;
      schedule(first);
      return first;
    }
    return refresh();
  };

  const shared = (): Promise<ModuleContent> => {
    inFlight ??= load().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  let scheduled: ModuleContent | undefined;
  function schedule(content: ModuleContent): void {
    if (!deps.autoRefresh || timerSignal.aborted || scheduled === content) return;
    scheduled = content;
    const delay = Math.max(expiresAtMs(content) - REFRESH_BEFORE_EXPIRY_MS - deps.now(), MIN_SCHEDULE_DELAY_MS);
    deps.sleep(delay, timerSignal).then(
      () => {
        // A current() call may have refreshed meanwhile; that refresh scheduled its own timer.
        if (timerSignal.aborted || record !== content) return;
        // A failed background refresh is not fatal: the next current() refreshes on demand and reschedules.
        shared().catch(() => undefined);
      },
      () => undefined,
    );
  }

  return {
    async current(): Promise<ModuleContent> {
      if (inFlight) return inFlight;
      if (record !== undefined && !needsRefresh(record)) return record;
      return shared();
    },
    stop(): void {
      stopper.abort();
    },
  };
}
