import { type ErrorBody, LoupeError } from '@loupe/contract';
import { terminalJson, terminalText, terminalValue } from './terminal-text.ts';

interface Streams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * Where a user command writes. With --json, stdout gets exactly one JSON document (the
 * result) and nothing else; a failure goes to stderr as the API's error body. Without it,
 * results are text for people on stdout, and notes (progress, warnings) go to stderr so a
 * pipe gets only the result. Nothing from the server reaches the terminal raw: its strings
 * go through terminal-text.ts (a page title can carry an escape sequence or a bidi override).
 */
export class Output {
  readonly json: boolean;
  readonly #streams: Streams;

  constructor(options: { json?: boolean }, streams: Streams = { stdout: process.stdout, stderr: process.stderr }) {
    this.json = options.json === true;
    this.#streams = streams;
  }

  get stdoutIsTty(): boolean {
    return this.#streams.stdout.isTTY === true;
  }

  get stderr(): NodeJS.WriteStream {
    return this.#streams.stderr;
  }

  /**
   * The command's one answer: `value` as JSON with --json, else what `text` makes of it. `text`
   * gets the value with its strings made safe, so the formatting it adds (bold) stays.
   */
  result<T>(value: T, text: (value: T) => string): void {
    if (this.json) this.#streams.stdout.write(`${this.#stringify(value)}\n`);
    else this.#write(this.#streams.stdout, text(terminalValue(value)));
  }

  /** A command whose answer is JSON either way (`call`): indented for people without --json. */
  jsonResult(value: unknown): void {
    this.#streams.stdout.write(`${this.json ? this.#stringify(value) : terminalJson(JSON.stringify(value, null, 2))}\n`);
  }

  /** A file's text (an export) on stdout: as it is into a pipe or a file, made safe on a terminal. */
  file(text: string): void {
    this.#write(this.#streams.stdout, this.stdoutIsTty ? terminalText(text, { multiline: true }) : text);
  }

  /** Text for people on stdout (a per-item line of a batch); nothing with --json. */
  say(text: string): void {
    if (!this.json) this.#write(this.#streams.stdout, terminalText(text, { multiline: true }));
  }

  /** Text for people on stderr (progress, hints); nothing with --json. */
  note(text: string): void {
    if (!this.json) this.#write(this.#streams.stderr, terminalText(text, { multiline: true }));
  }

  /** A failure: the error body as JSON with --json, else a message and the field errors. */
  error(error: unknown): void {
    const body = errorBody(error);
    if (this.json) {
      this.#streams.stderr.write(`${terminalJson(JSON.stringify(body))}\n`);
      return;
    }
    const lines = [`loupe: ${body.error} (${body.code})`];
    for (const [field, messages] of Object.entries(body.details?.fieldErrors ?? {})) {
      // The CLI's own usage errors say the same in the message as in the details.
      for (const message of messages) if (message !== body.error) lines.push(`  ${field}: ${message}`);
    }
    for (const message of body.details?.formErrors ?? []) lines.push(`  ${message}`);
    const { error: _message, code: _code, details: _details, requestId, ...extra } = body;
    for (const [name, value] of Object.entries(extra))
      lines.push(`  ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    if (requestId) lines.push(`  request id: ${String(requestId)}`);
    this.#write(this.#streams.stderr, terminalText(lines.join('\n'), { multiline: true }));
  }

  #stringify(value: unknown): string {
    // Indented for a person at a terminal, one line for a pipe (line-oriented tools, jq alike).
    return terminalJson(this.stdoutIsTty ? JSON.stringify(value, null, 2) : JSON.stringify(value));
  }

  #write(stream: NodeJS.WriteStream, text: string): void {
    stream.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** The API's error body for any failure; an unexpected one is an `internal_error`. */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof LoupeError) return error.toBody();
  return { error: error instanceof Error ? error.message : String(error), code: 'internal_error' };
}
