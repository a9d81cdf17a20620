import { addFieldError, LoupeError, type ValidationDetails } from '@loupe/contract';

export type FieldPath = readonly (string | number)[];

/**
 * What the compile step found wrong with a pack that passed its schema, keyed by the same
 * dotted field paths as the schema's own errors, so a caller fixes both the same way.
 */
export class CompileProblems {
  readonly #prefix: FieldPath;
  readonly #details: ValidationDetails = { fieldErrors: {}, formErrors: [] };
  #count = 0;

  constructor(prefix: FieldPath = []) {
    this.#prefix = prefix;
  }

  add(path: FieldPath, message: string): void {
    this.#count++;
    const field = [...this.#prefix, ...path].join('.');
    if (field) addFieldError(this.#details, field, message);
    else this.#details.formErrors.push(message);
  }

  throwIfAny(): void {
    if (this.#count > 0) throw new LoupeError('validation_failed', { message: 'The rule pack does not compile.', details: this.#details });
  }
}
