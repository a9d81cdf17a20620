import type { Logger } from 'pino';
import type { Scheduler } from './scheduler.ts';

export interface SchedulerLoop {
  /** Stops ticking; resolves once a tick under way has finished. */
  stop(): Promise<void>;
}

/**
 * Ticks `scheduler` with the real time every `intervalMs` (LOUPE_SCHEDULER_TICK_MS) until
 * stopped; 0 starts nothing. The next tick is timed from the end of the last, so ticks never
 * overlap, and a failed tick (the database away) is logged and the next one tries again.
 */
export function startSchedulerLoop(scheduler: Pick<Scheduler, 'tick'>, intervalMs: number, log: Pick<Logger, 'error'>): SchedulerLoop {
  if (intervalMs === 0) return { stop: async () => {} };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(() => {
      running = scheduler
        .tick(new Date())
        .then(
          () => {},
          (error: unknown) => log.error({ err: error }, 'scheduler tick failed'),
        )
        .finally(() => {
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
