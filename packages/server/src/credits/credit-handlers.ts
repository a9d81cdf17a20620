import type { Handlers } from '../http/handlers.ts';
import type { CreditService } from './credit-service.ts';

type CreditHandlers = Pick<Handlers, 'getCredits' | 'listCreditEntries'>;

export function creditHandlers(credits: CreditService): CreditHandlers {
  return {
    getCredits: (_input, { principal }) => credits.summary(principal),
    listCreditEntries: ({ query }, { principal }) => credits.ledger(principal, query),
  };
}
