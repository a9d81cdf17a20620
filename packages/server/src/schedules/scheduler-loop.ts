import type { Logger } from 'pino';

/** Work a process does at each tick of the loop with the time: the schedules' Scheduler, the MonthlyAllowance. */
export interface Ticker {
  tick(at: Date): Promise<unknown>;
}

export interface SchedulerLoop {
  /** Stops ticking; resolves once a tick under way has finished. */
  stop(): Promise<void>;
}

/**
 * Ticks each of `tickers` in turn with the real time every `intervalMs` (LOUPE_SCHEDULER_TICK_MS)
 * until stopped; 0 starts nothing. The next tick is timed from the end of the last, so ticks never
 * overlap, and a failed tick (the database away) is logged, the others still run, and the next
 * tick tries again.
 */
export function startSchedulerLoop(tickers: readonly Ticker[], intervalMs: number, log: Pick<Logger, 'error'>): SchedulerLoop {
  if (intervalMs === 0) return { stop: async () => {} };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(() => {
      running = tickAll(tickers, new Date(), log).finally(() => {
        if (!stopped) schedule();
      });
    }, intervalMs);
    // The loop alone never keeps a process alive.
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

async function tickAll(tickers: readonly Ticker[], at: Date, log: Pick<Logger, 'error'>): Promise<void> {
  for (const ticker of tickers) {
    await ticker.tick(at).catch((error: unknown) => log.error({ err: error }, 'scheduler tick failed'));
  }
}
