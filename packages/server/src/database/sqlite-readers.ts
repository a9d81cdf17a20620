import type { SQLInputValue } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import type { ReaderProcedure } from './reader-procedure.ts';
import type { ReadAnswer, ReadRequest } from './sqlite-reader-thread.ts';

interface Waiter {
  resolve: (answer: unknown) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  pending: Map<number, Waiter>;
}

/** A read not handed to a reader yet. */
interface Queued extends Waiter {
  request: (id: number) => ReadRequest;
}

/**
 * Reads a reader holds at once: the one it runs and the next, waiting at its thread so that it
 * never idles between two. The rest wait here and go to whichever reader frees first, so a slow
 * read holds up the one read behind it rather than a reader's whole share of the queue.
 */
const IN_FLIGHT = 2;

/**
 * Read-only connections to a SQLite file, each on a thread of its own. node:sqlite runs a query
 * on the thread that calls it, so a costly read on the server's connection (a full-text search
 * ranking thousands of matches) holds up every other request of the process; sent here, it runs
 * beside them, and reads run in parallel up to the number of readers. WAL gives each read the
 * last committed state, as a read on the writer's connection outside a transaction sees it.
 * The threads start with the first read.
 */
export class SqliteReaders {
  readonly #file: string;
  readonly #readerCount: number;
  #readers: Reader[] | undefined;
  readonly #queue: Queued[] = [];
  #nextId = 0;

  constructor(file: string, size: number) {
    this.#file = file;
    this.#readerCount = size;
  }

  /** The rows of a read-only query; never part of a transaction. */
  query<Row>(compiled: CompiledQuery<Row>): Promise<Row[]> {
    return this.#post((id) => ({ id, sql: compiled.sql, parameters: compiled.parameters as SQLInputValue[] })) as Promise<Row[]>;
  }

  /** What a procedure answers, run on a reader thread with its connection; never part of a transaction. */
  run<Input, Output>(procedure: ReaderProcedure<Input, Output>, input: Input): Promise<Output> {
    return this.#post((id) => ({ id, module: procedure.module, name: procedure.name, input })) as Promise<Output>;
  }

  #post(request: (id: number) => ReadRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#dispatch();
    });
  }

  /** Hands queued reads to the readers with room, the one with the fewest first. */
  #dispatch(): void {
    const readers = (this.#readers ??= Array.from({ length: this.#readerCount }, () => this.#start()));
    while (this.#queue.length > 0) {
      const reader = readers.reduce((best, each) => (each.pending.size < best.pending.size ? each : best));
      if (reader.pending.size >= IN_FLIGHT) return;
      const { request, resolve, reject } = this.#queue.shift() as Queued;
      const id = this.#nextId++;
      // A thread waited on keeps the process alive; an idle one does not.
      if (reader.pending.size === 0) reader.worker.ref();
      reader.pending.set(id, { resolve, reject });
      reader.worker.postMessage(request(id));
    }
  }

  async close(): Promise<void> {
    const readers = this.#readers ?? [];
    this.#readers = undefined;
    for (const queued of this.#queue.splice(0)) queued.reject(new Error('The SQLite readers are closed.'));
    await Promise.all(readers.map((reader) => reader.worker.terminate()));
  }

  #start(): Reader {
    const worker = new Worker(new URL('./sqlite-reader-thread.ts', import.meta.url), { workerData: { file: this.#file } });
    const reader: Reader = { worker, pending: new Map() };
    worker.on('message', (answer: ReadAnswer) => {
      const waiting = reader.pending.get(answer.id);
      if (!waiting) return;
      reader.pending.delete(answer.id);
      if (reader.pending.size === 0) worker.unref();
      if ('rows' in answer) waiting.resolve(answer.rows);
      else if ('result' in answer) waiting.resolve(answer.result);
      else waiting.reject(Object.assign(new Error(answer.error.message), { errcode: answer.error.errcode }));
      if (this.#readers) this.#dispatch();
    });
    // A thread that dies fails the reads it held and is replaced (unless the pool is closing).
    const fail = (error: Error) => {
      for (const waiting of reader.pending.values()) waiting.reject(error);
      reader.pending.clear();
      const index = this.#readers?.indexOf(reader) ?? -1;
      if (index >= 0) {
        (this.#readers as Reader[])[index] = this.#start();
        this.#dispatch();
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A SQLite reader thread stopped (exit code ${code}).`)));
    worker.unref();
    return reader;
  }
}
