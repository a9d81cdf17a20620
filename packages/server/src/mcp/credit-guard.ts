import type { CrawlDefaults, OperationDefinition, StartCrawl } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { ToolErrorBody } from './tool-result.ts';

type CrawlRequest = Pick<StartCrawl, 'mode' | 'maxPages'>;

/**
 * What starting the crawl would reserve, by the server's rule (crawl/crawl-service.ts): one
 * credit for a page audit, otherwise maxPages, which defaults to and is clamped to the plan's
 * cap. A maxPages within budget is within budget whatever the cap, so the cap is fetched only
 * when it can change the answer.
 */
async function reservation(request: CrawlRequest, maxCredits: number, pageCap: () => Promise<number>): Promise<number> {
  if (request.mode === 'page') return 1;
  if (request.maxPages !== undefined && request.maxPages <= maxCredits) return request.maxPages;
  const cap = await pageCap();
  return Math.min(request.maxPages ?? cap, cap);
}

type ReadCrawlRequest = (args: Record<string, unknown>, client: LoupeClient) => Promise<CrawlRequest>;

/** For each credit-spending operation, the crawl it would start, as far as the estimate needs it. */
const crawlRequests: Record<string, ReadCrawlRequest> = {
  startCrawl: async (args) => (args.body ?? {}) as CrawlRequest,
  // A project crawl starts from the project's crawl defaults, each overridden by a field sent.
  startProjectCrawl: async (args, client) => {
    const body = (args.body ?? {}) as CrawlRequest;
    if (body.mode !== undefined && body.maxPages !== undefined) return body;
    const defaults: CrawlDefaults = (await client.getAuditProject({ projectId: String(args.projectId) })).crawlDefaults;
    return { mode: body.mode ?? defaults.mode, maxPages: body.maxPages ?? defaults.maxPages };
  },
};

/** The operations the guard can estimate: a test checks that every `spendsCredits` operation is one. */
export const estimatedOperations: readonly string[] = Object.keys(crawlRequests);

/**
 * The maxCredits guard of credit-spending tools: a refusal (nothing started) when the crawl
 * could reserve more than `maxCredits`, else undefined. Estimating may read the project and
 * the plan's cap; their failures are thrown as the API's errors.
 */
export async function refuseOverBudget(
  operation: OperationDefinition,
  args: Record<string, unknown>,
  maxCredits: number,
  client: LoupeClient,
): Promise<ToolErrorBody | undefined> {
  const readRequest = Object.hasOwn(crawlRequests, operation.id) ? crawlRequests[operation.id] : undefined;
  if (!readRequest) throw new Error(`No credit estimate for ${operation.id}: teach credit-guard.ts how it spends credits.`);
  const request = await readRequest(args, client);
  const credits = await reservation(request, maxCredits, async () => (await client.getCredits({})).pagesPerCrawl);
  if (credits <= maxCredits) return undefined;
  return {
    error: `This crawl could reserve up to ${credits} credits, more than maxCredits (${maxCredits}); nothing was started. Pass maxPages of at most ${maxCredits}, or a higher maxCredits.`,
    code: 'max_credits_exceeded',
    estimate: credits,
    maxCredits,
  };
}

