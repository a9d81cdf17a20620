/**
 * One fetch's whole deadline: every hop and the body together end after `ms`. undici's
 * headersTimeout and bodyTimeout start again with each hop and each chunk, so a body
 * trickled a byte at a time, or a chain of slow redirects, would pass them all.
 * The caller's signal ends it too; `expired` tells the deadline from that abort, which
 * means "stop and ask again later", not "the site is too slow".
 */
export class FetchDeadline {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #caller: AbortSignal | undefined;
  readonly #onCallerAbort = () => this.#controller.abort(this.#caller?.reason);
  #expired = false;

  constructor(ms: number, caller?: AbortSignal) {
    this.signal = this.#controller.signal;
    this.#caller = caller;
    this.#timer = setTimeout(() => {
      if (this.signal.aborted) return;
      this.#expired = true;
      this.#controller.abort(new DOMException(`No complete answer within ${ms} ms.`, 'TimeoutError'));
    }, ms);
    if (caller?.aborted) this.#onCallerAbort();
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  /** The deadline passed before the caller aborted. */
  get expired(): boolean {
    return this.#expired;
  }

  /** The caller aborted: the fetch is no result. */
  get cancelled(): boolean {
    return this.signal.aborted && !this.#expired;
  }

  /** Stops the timer and lets go of the caller's signal; call once the fetch is over. */
  end(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
