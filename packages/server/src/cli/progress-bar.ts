import { terminalText } from './terminal-text.ts';

const BAR_WIDTH = 24;
/** Redraws at most this often: a fast crawl sends an event per page, a terminal needs far fewer. */
const REDRAW_MS = 80;

/** One state of the bar. */
export interface BarState {
  /** How far along: fills the bar, and a pipe gets a line per tenth of it. */
  current: number;
  total: number;
  /** What the line says after the bar; `current/total unit` when absent. */
  text?: string;
  /** A step of the work (a crawl's phase): a pipe gets a line when it changes, and its tenths start again. */
  stage?: string;
  /** Shown last, escaped (the URL a crawl fetched last). */
  label?: string;
}

/**
 * Progress of a count towards a total, on one stream. On a terminal it is one line redrawn
 * in place (`[██████░░░░] 12/50 pages  https://…`); anywhere else (a pipe, a CI log) it is
 * plain lines, one per stage and per tenth of the way, so logs get no control characters.
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
  #text: string | undefined;
  #stage: string | undefined;

  constructor(stream: NodeJS.WriteStream, options: { unit: string; live?: boolean }) {
    this.#stream = stream;
    this.#live = options.live ?? stream.isTTY === true;
    this.#unit = options.unit;
  }

  update(current: number, total: number, label = ''): void {
    this.show({ current, total, label });
  }

  show(state: BarState): void {
    const { current, total } = state;
    const newStage = state.stage !== this.#stage;
    this.#current = current;
    this.#total = total;
    this.#text = state.text;
    this.#stage = state.stage;
    // The URL a crawl fetched last: a crawled site chooses it, escape sequences and all.
    this.#label = terminalText(state.label ?? '');
    if (this.#live) {
      const now = Date.now();
      if (now - this.#lastDraw >= REDRAW_MS || current >= total || newStage) this.#draw(now);
      return;
    }
    if (newStage) this.#lastTenth = -1;
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
    return this.#text ?? `${this.#current}/${this.#total} ${this.#unit}`;
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
