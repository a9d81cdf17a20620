import type { OperationById, OperationId, OperationInput, OperationResult, Page } from '@loupe/contract';
import type { Caller, Principal } from '../principal.ts';
import type { PreparedPage } from './prepared-page.ts';

export interface RequestContext<P extends Principal | Caller | null = Principal> {
  /**
   * Null for public operations (share links), which take no key; for an operation whose
   * credentials are optional, the calling account (a Caller, in no workspace) or null.
   */
  principal: P;
  requestId: string;
  /** Aborted when the client disconnects (or once the answer is sent). */
  signal: AbortSignal;
}

/** What a handler answers: its operation's result, or for a paged one the page serialised already (prepared-page.ts). */
export type Answer<R> = R | (R extends Page<infer T> ? PreparedPage<T> : never);

/** Serves one registry operation: validated input in, the resource (or one page) out. */
export type Handler<I extends OperationId> = (
  input: OperationInput<OperationById<I>>,
  context: RequestContext<
    OperationById<I> extends { public: true } ? null : OperationById<I> extends { credentials: 'optional' } ? Caller | null : Principal
  >,
) => Promise<Answer<OperationResult<OperationById<I>>>>;

/** One handler per operation: a missing one is a type error, and start-up refuses it too. */
export type Handlers = { [I in OperationId]: Handler<I> };
