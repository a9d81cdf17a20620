import type { Handlers } from '../http/handlers.ts';
import type { SigningService } from './signing-service.ts';
import type { UsageService } from './usage-service.ts';

type DeliveryHandlers = Pick<Handlers, 'getSigning' | 'updateSigning' | 'signUrl' | 'getImageUsage'>;

export function deliveryHandlers(signing: SigningService, usage: UsageService): DeliveryHandlers {
  return {
    getSigning: ({ params }, { principal }) => signing.get(principal, params.projectId),
    updateSigning: ({ params, body }, { principal }) => signing.update(principal, params.projectId, body),
    signUrl: ({ params, body }, { principal }) => signing.sign(principal, params.projectId, body),
    getImageUsage: ({ params, query }, { principal }) => usage.daily(principal, params.projectId, query.days),
  };
}
