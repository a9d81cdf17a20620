import type { Handlers } from '../http/handlers.ts';
import type { OriginSettings } from './origin-settings.ts';

type OriginHandlers = Pick<Handlers, 'getImageOrigin' | 'setImageOrigin'>;

export function originHandlers(settings: OriginSettings): OriginHandlers {
  return {
    getImageOrigin: ({ params }, { principal }) => settings.get(principal, params.projectId),
    setImageOrigin: ({ params, body }, { principal }) => settings.set(principal, params.projectId, body),
  };
}
