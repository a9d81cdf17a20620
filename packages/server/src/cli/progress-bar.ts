import { terminalText } from './terminal-text.ts';

const BAR_WIDTH = 24;
/** Redraws at most this often: a fast crawl sends an event per page, a terminal needs far fewer. */
const REDRAW_MS = 80;

/**
 * Progress of a count towards a total, on one stream. On a terminal it is one line redrawn
 * in place (`[██████░░░░] 12/50 pages  https://…`); anywhere else (a pipe, a CI log) it is
 * plain lines, one per tenth of the way, so logs get no control characters.
 */
export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  readonly #live: boolean;
  readonly #unit: string;
  #drawn = '';
  #lastDraw = 0;
  #lastTenth = -1;
  #current = 0;
  #total = 0;
  #label = '';

  constructor(stream: NodeJS.WriteStream, options: { unit: string; live?: boolean }) {
    this.#stream = stream;
    this.#live = options.live ?? stream.isTTY === true;
    this.#unit = options.unit;
  }

  update(current: number, total: number, label = ''): void {
    this.#current = current;
    this.#total = total;
    // The URL a crawl fetched last: a crawled site chooses it, escape sequences and all.
    this.#label = terminalText(label);
    if (this.#live) {
      const now = Date.now();
      if (now - this.#lastDraw >= REDRAW_MS || current >= total) this.#draw(now);
      return;
    }
    const tenth = total > 0 ? Math.floor((10 * Math.min(current, total)) / total) : 0;
    if (tenth > this.#lastTenth) {
      this.#lastTenth = tenth;
      this.#stream.write(`${this.#count()}${this.#label ? `  ${this.#label}` : ''}\n`);
    }
  }

  /** A line above the bar (a state change), which stays. */
  log(line: string): void {
    if (this.#live && this.#drawn) this.#stream.write('\r\x1b[2K');
    this.#stream.write(`${terminalText(line)}\n`);
    if (this.#live && this.#drawn) this.#draw(Date.now());
  }

  /** Leaves the last state of the bar on its line. */
  stop(): void {
    if (!this.#live || !this.#drawn) return;
    this.#draw(Date.now());
    this.#stream.write('\n');
    this.#drawn = '';
  }

  #count(): string {
    return `${this.#current}/${this.#total} ${this.#unit}`;
  }

  #draw(now: number): void {
    this.#lastDraw = now;
    const share = this.#total > 0 ? Math.min(1, this.#current / this.#total) : 0;
    const filled = Math.round(share * BAR_WIDTH);
    const line = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${this.#count()}${this.#label ? `  ${this.#label}` : ''}`;
    const columns = this.#stream.columns || 80;
    // One character short of the width: writing the last column wraps on some terminals.
    this.#drawn = line.length >= columns ? `${line.slice(0, columns - 2)}…` : line;
    this.#stream.write(`\r\x1b[2K${this.#drawn}`);
  }
}
