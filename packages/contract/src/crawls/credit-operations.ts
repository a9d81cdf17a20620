import { defineOperation } from '../operation.ts';
import { CreditEntry, CreditSummary } from './credits.ts';

export const creditOperations = [
  defineOperation({
    id: 'getCredits',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/team/credits',
    summary: 'Credit balance',
    description: "The workspace's credit balance, credits held by running crawls, and the plan's allowances. Free.",
    tag: 'Credits',
    scopes: ['reports:read'],
    output: CreditSummary,
  }),
  defineOperation({
    id: 'listCreditEntries',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/team/credits/ledger',
    summary: 'Credit ledger',
    description: 'Every grant, reservation, release and charge of credits, oldest first. Free.',
    tag: 'Credits',
    scopes: ['reports:read'],
    paged: true,
    output: CreditEntry,
  }),
];
