import type { Handlers } from '../http/handlers.ts';
import type { Plans } from './plans.ts';

export function planHandlers(plans: Plans): Pick<Handlers, 'listPlans'> {
  return {
    listPlans: async () => plans.names().map((name) => ({ name, limits: plans.limits(name) })),
  };
}
