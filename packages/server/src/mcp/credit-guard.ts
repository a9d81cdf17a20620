import type { CrawlEstimate, OperationDefinition } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { ToolErrorBody } from './tool-result.ts';

type Estimate = (args: Record<string, unknown>, client: LoupeClient) => Promise<CrawlEstimate>;

/**
 * For each credit-spending operation, the API's own estimate of the same request: the server
 * applies its rule (plan cap, project defaults), so the guard never keeps a copy of it.
 */
const estimates: Record<string, Estimate> = {
  startCrawl: (args, client) => client.estimateCrawl({ body: args.body as never }),
  startProjectCrawl: (args, client) => client.estimateProjectCrawl({ projectId: String(args.projectId), body: (args.body ?? {}) as never }),
};

/** The operations the guard can estimate: a test checks that every `spendsCredits` operation is one. */
export const estimatedOperations: readonly string[] = Object.keys(estimates);

/**
 * The maxCredits guard of credit-spending tools: a refusal (nothing started) when the crawl
 * could reserve more than `maxCredits`, else undefined. The estimate's failures (an invalid
 * body, an unknown project) are thrown as the API's errors, as starting would answer them.
 */
export async function refuseOverBudget(
  operation: OperationDefinition,
  args: Record<string, unknown>,
  maxCredits: number,
  client: LoupeClient,
): Promise<ToolErrorBody | undefined> {
  const estimate = Object.hasOwn(estimates, operation.id) ? estimates[operation.id] : undefined;
  if (!estimate) throw new Error(`No credit estimate for ${operation.id}: teach credit-guard.ts how it spends credits.`);
  const { credits, creditsPerPage, balance } = await estimate(args, client);
  if (credits <= maxCredits) return undefined;
  return {
    error: `This crawl could reserve up to ${credits} credits, more than maxCredits (${maxCredits}); nothing was started. Pass maxPages of at most ${Math.floor(maxCredits / creditsPerPage)}, or a higher maxCredits.`,
    code: 'max_credits_exceeded',
    estimate: credits,
    maxCredits,
    balance,
  };
}
