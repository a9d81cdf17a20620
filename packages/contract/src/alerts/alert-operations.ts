import { z } from 'zod';
import { ProjectParams } from '../audit-projects/audit-project-operations.ts';
import { defineOperation } from '../operation.ts';
import { AlertDelivery, ListAlertDeliveriesQuery } from './alert-delivery.ts';
import { AlertSettings, UpdateAlertSettings } from './alert-settings.ts';

export const alertOperations = [
  defineOperation({
    id: 'getAlertSettings',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/alerts',
    summary: "Get a project's alert settings",
    description:
      'When the project alerts (crawl failed, score below, score drop, new errors) and where (signed webhooks, email). Never saved: disabled with no channels. Webhook secrets show as a preview only. Free. Next: updateAlertSettings.',
    tag: 'Alerts',
    scopes: ['reports:read'],
    params: ProjectParams,
    output: AlertSettings,
  }),
  defineOperation({
    id: 'updateAlertSettings',
    api: 'workspace',
    method: 'PUT',
    path: '/api/v1/projects/{projectId}/alerts',
    summary: "Replace a project's alert settings",
    description:
      'Replaces the settings whole. When a crawl of the project ends, the conditions are checked and one alert per channel lists every one that fired. A webhook channel sent with the id of an existing one keeps its secret unless a new one is given; a new webhook without a secret gets one generated, returned in this answer only. Free. Next: sendTestAlert.',
    tag: 'Alerts',
    scopes: ['projects:write'],
    params: ProjectParams,
    body: UpdateAlertSettings,
    output: AlertSettings,
  }),
  defineOperation({
    id: 'sendTestAlert',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/projects/{projectId}/alerts/test',
    summary: 'Send a test alert',
    description:
      'Queues an alert marked `test: true` on every channel, whether or not alerts are enabled, and answers the pending deliveries (none without channels). Delivered like real alerts, retries included. Free. Next: listAlertDeliveries to see how they went.',
    tag: 'Alerts',
    scopes: ['projects:write'],
    params: ProjectParams,
    output: z.array(AlertDelivery),
    status: 202,
  }),
  defineOperation({
    id: 'listAlertDeliveries',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/alerts/deliveries',
    summary: "List a project's alert deliveries",
    description:
      'The delivery log, newest first: each alert on each channel, the conditions that fired, its state (pending, delivered, failed), attempts, last error and HTTP status. Free.',
    tag: 'Alerts',
    scopes: ['reports:read'],
    params: ProjectParams,
    query: ListAlertDeliveriesQuery,
    paged: true,
    output: AlertDelivery,
  }),
];
