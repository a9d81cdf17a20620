import { alertOperations } from './alerts/alert-operations.ts';
import { auditProjectOperations } from './audit-projects/audit-project-operations.ts';
import { crawlOperations } from './crawls/crawl-operations.ts';
import { creditOperations } from './crawls/credit-operations.ts';
import { diffOperations } from './diff/diff-operations.ts';
import { keyOperations } from './identity/key-operations.ts';
import { deliveryOperations } from './images/delivery-operations.ts';
import { imageOperations } from './images/image-operations.ts';
import { originOperations } from './images/origin-operations.ts';
import { presetOperations } from './images/preset-operations.ts';
import { projectOperations } from './images/project-operations.ts';
import { reportOperations } from './reports/report-operations.ts';
import { rulePackOperations } from './rules/rule-pack-operations.ts';
import { scheduleOperations } from './schedules/schedule-operations.ts';
import { searchOperations } from './search/search-operations.ts';
import { teamOperations } from './team/team-operations.ts';

/** Every operation of both APIs. Routes, OpenAPI, MCP tools and SDK methods derive from this list. */
export const operations = [
  ...projectOperations,
  ...presetOperations,
  ...imageOperations,
  ...deliveryOperations,
  ...originOperations,
  ...crawlOperations,
  ...creditOperations,
  ...reportOperations,
  ...diffOperations,
  ...rulePackOperations,
  ...auditProjectOperations,
  ...scheduleOperations,
  ...alertOperations,
  ...searchOperations,
  ...keyOperations,
  ...teamOperations,
];

export type Operation = (typeof operations)[number];
export type OperationId = Operation['id'];
export type OperationById<I extends OperationId> = Extract<Operation, { id: I }>;
