import type { Handlers } from '../http/handlers.ts';
import type { AlertService } from './alert-service.ts';

type AlertHandlers = Pick<Handlers, 'getAlertSettings' | 'updateAlertSettings' | 'sendTestAlert' | 'listAlertDeliveries'>;

export function alertHandlers(alerts: AlertService): AlertHandlers {
  return {
    getAlertSettings: ({ params }, { principal }) => alerts.get(principal, params.projectId),
    updateAlertSettings: ({ params, body }, { principal }) => alerts.update(principal, params.projectId, body),
    sendTestAlert: ({ params }, { principal }) => alerts.sendTest(principal, params.projectId),
    listAlertDeliveries: ({ params, query }, { principal }) => alerts.deliveries(principal, params.projectId, query),
  };
}
