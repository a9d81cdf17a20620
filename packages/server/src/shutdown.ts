import type { Server } from 'node:http';
import { constants } from 'node:os';
import type { Logger } from 'pino';

/**
 * The steps of a process's shutdown that are still under way, by name, so that a shutdown cut
 * short by its deadline can say what it cut short.
 */
export class ShutdownSteps {
  readonly #pending = new Map<string, (() => string[]) | undefined>();

  /**
   * Runs `work` as the step `name`, which counts as unfinished until it settles; `detail`
   * names what the step still waits on (the jobs still running, say).
   */
  async run<T>(name: string, work: () => Promise<T>, detail?: () => string[]): Promise<T> {
    this.#pending.set(name, detail);
    try {
      return await work();
    } finally {
      this.#pending.delete(name);
    }
  }

  unfinished(): string[] {
    return [...this.#pending].map(([name, detail]) => {
      const waitingOn = detail?.() ?? [];
      return waitingOn.length > 0 ? `${name}: ${waitingOn.join(', ')}` : name;
    });
  }
}

/**
 * Closing a server waits for its connections to close, and a keep-alive connection whose
 * request was answered during the shutdown would stay open until its client drops it (5 s
 * for Node's agent, minutes for some). Once `closing()` is called, each connection is closed
 * as soon as it falls idle, and those idle already are closed at once.
 */
export function closeConnectionsOnceIdle(server: Server): { closing(): void } {
  let closing = false;
  server.on('request', (_request, response) => {
    response.once('close', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    closing() {
      closing = true;
      server.closeIdleConnections();
    },
  };
}

export interface GracefulProcess {
  /** Stops taking work, hands running work back and closes; resolves once nothing is left. */
  close(): Promise<void>;
  /** What close() is still waiting on, for the log line of a shutdown past its deadline. */
  unfinished(): string[];
}

/**
 * On SIGTERM or SIGINT, closes the process within `deadlineSeconds` and exits: 0 once closed, 1
 * when closing failed or the deadline passed first (logging what was cut short). A second
 * signal exits at once, with 128 + the signal's number as a shell reports it.
 */
export function exitOnSignals(running: GracefulProcess, deadlineSeconds: number, log: Pick<Logger, 'info' | 'warn' | 'error'>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ unfinished: running.unfinished() }, `${signal} again: exiting at once`);
      process.exit(128 + constants.signals[signal]);
    }
    stopping = true;
    log.info(`${signal}: shutting down (at most ${deadlineSeconds} s; a second signal exits at once)`);
    const deadline = setTimeout(() => {
      log.error({ unfinished: running.unfinished() }, `shutdown took longer than ${deadlineSeconds} s: exiting anyway`);
      process.exit(1);
    }, deadlineSeconds * 1000);
    running.close().then(
      () => {
        clearTimeout(deadline);
        log.info('shut down');
        process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log.error({ err: error, unfinished: running.unfinished() }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
