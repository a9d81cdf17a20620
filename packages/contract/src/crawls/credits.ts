import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';

export const creditEntryKinds = ['grant', 'reserve', 'release', 'charge'] as const;

export const CreditEntry = z
  .object({
    id: Id,
    kind: z
      .enum(creditEntryKinds)
      .describe('grant adds credits; reserve holds them for a crawl; release returns the hold; charge spends one per crawled page.'),
    amount: z.number().int().describe('Signed change of the balance.'),
    balanceAfter: z.number().int(),
    crawlId: Id.nullable(),
    note: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'CreditEntry' });
export type CreditEntry = z.infer<typeof CreditEntry>;

export const CreditSummary = z
  .object({
    balance: z.number().int().describe('Credits available to start crawls (reserved ones are already taken out).'),
    reserved: z.number().int().describe('Credits held by queued and running crawls.'),
    plan: z.string(),
    pagesPerCrawl: z.number().int(),
    monthlyCredits: z.number().int().nullable().describe("The plan's monthly allowance; null: unmetered, crawls spend no credits."),
  })
  .meta({ id: 'CreditSummary' });
export type CreditSummary = z.infer<typeof CreditSummary>;
