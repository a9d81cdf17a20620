import { type Crawl, CrawlStatus, type StartCrawl } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import { type Command, Option } from 'commander';
import { crawlProgressBar } from '../crawl-progress-bar.ts';
import { followCrawl } from '../follow-crawl.ts';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { auditProjectId } from '../project-references.ts';
import { formatFields, formatTable } from '../table.ts';
import { keyValues, repeatable, userAction, wholeNumber, withClientFlags } from '../user-command.ts';

interface CrawlFlags {
  page?: boolean;
  project?: string;
  maxPages?: number;
  maxDepth?: number;
  include?: string[];
  exclude?: string[];
  robots: boolean;
  sitemaps: boolean;
  render?: boolean;
  concurrency?: number;
  delayMs?: number;
  userAgent?: string;
  header?: string[];
  wait: boolean;
}

function crawlRequest(url: string, options: CrawlFlags): StartCrawl {
  const headers = keyValues(options.header, 'header');
  return {
    url,
    mode: options.page ? 'page' : 'site',
    projectId: options.project,
    maxPages: options.maxPages,
    maxDepth: options.maxDepth,
    include: options.include,
    exclude: options.exclude,
    respectRobots: options.robots,
    sitemaps: options.sitemaps,
    render: options.render,
    concurrency: options.concurrency,
    delayMs: options.delayMs,
    userAgent: options.userAgent,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
  };
}

interface CrawlListFlags extends ListFlags {
  status?: CrawlStatus;
  active?: boolean;
  project?: string;
}

/**
 * The crawls a list asks for. The workspace listing answers one state at a time (queued and
 * running ones by default), so every crawl is each state's pages merged in the API's order;
 * the first --limit of each state hold the first --limit of all.
 */
async function listCrawls(client: LoupeClient, options: CrawlListFlags): Promise<Crawl[]> {
  if (options.project !== undefined) {
    const projectId = await auditProjectId(client, options.project);
    return listAll(options, (page) => client.all.listProjectCrawls({ projectId, status: options.status, ...page }));
  }
  const statuses = options.status ? [options.status] : options.active ? (['queued', 'running'] as const) : CrawlStatus.options;
  const crawls: Crawl[] = [];
  for (const status of statuses) crawls.push(...(await listAll(options, (page) => client.all.listCrawls({ status, ...page }))));
  crawls.sort((a, b) => a.id.toLowerCase().localeCompare(b.id.toLowerCase()));
  return crawls.slice(0, options.limit);
}

/** `loupe crawl <url>`: start a crawl, follow it with a progress bar, print the report's summary. */
export function registerCrawlCommand(program: Command): void {
  withClientFlags(program.command('crawl').description('Crawl and audit a site (or one page), with progress, then the report summary.'))
    .argument('<url>', 'the site or page to audit, http(s)')
    .option('--page', 'audit this one URL only (a one-page crawl)')
    .option('--project <project>', 'file the report under this audit project (id or name)')
    .option('--max-pages <n>', "pages to crawl at most (default and cap: the plan's)", wholeNumber(1, 100_000))
    .option('--max-depth <n>', 'clicks from the start URL (default: unlimited)', wholeNumber(0, 100))
    .option('--include <glob>', 'only URLs whose path matches, e.g. /docs/** (repeatable)', repeatable)
    .option('--exclude <glob>', 'never URLs whose path matches (repeatable)', repeatable)
    .option('--no-robots', 'ignore robots.txt')
    .option('--no-sitemaps', 'do not start from the URLs of the sitemaps')
    .option('--render', 'also load each page in headless Chromium: rendered DOM, lab metrics, accessibility, screenshot (5 credits a page)')
    .option('--concurrency <n>', 'requests in flight to the site at once (1–32, default 4)', wholeNumber(1, 32))
    .option('--delay-ms <ms>', 'pause between requests to the site', wholeNumber(0, 60_000))
    .option('--user-agent <text>', 'the User-Agent to send')
    .option('--header <name=value>', 'an extra request header (repeatable)', repeatable)
    .option('--no-wait', 'print the started crawl and return at once')
    .addHelpText(
      'after',
      '\nProgress goes to stderr: a live bar on a terminal, plain lines otherwise, nothing with --json.\nExits 0 when the crawl completed, 8 when it failed or was canceled, 5 without enough credits.',
    )
    .action(
      userAction<CrawlFlags>(async ({ session, output }, [url], options) => {
        const client = await session.workspaceClient();
        const projectId = options.project === undefined ? undefined : await auditProjectId(client, options.project);
        const crawl = await client.startCrawl({ body: crawlRequest(url as string, { ...options, project: projectId }) });
        if (crawl.capped) output.note(`maxPages lowered to the plan's cap: ${crawl.maxPages}.`);
        if (!options.wait) {
          output.result(
            crawl,
            (c) => `Started crawl ${c.id} (${c.status}, up to ${c.maxPages} pages).\nFollow it: loupe crawls watch ${c.id}`,
          );
          return;
        }
        output.note(`Crawl ${crawl.id} of ${crawl.url}: up to ${crawl.maxPages} pages, ${crawl.creditsReserved} credits reserved.`);
        return followCrawl(client, crawl, output);
      }),
    );

  const crawls = program.command('crawls').description('Crawls of the workspace: list, show, follow, cancel.');

  withListFlags(withClientFlags(crawls.command('list').description('List crawls, past and running, oldest first.')))
    .addOption(new Option('--status <status>', 'only crawls in this state').choices(CrawlStatus.options))
    .addOption(new Option('--active', 'only queued and running crawls').conflicts('status'))
    .option('--project <project>', 'only crawls of this audit project (id or name), newest first')
    .action(
      userAction<CrawlListFlags>(async ({ session, output }, _args, options) => {
        const list = await listCrawls(await session.workspaceClient(), options);
        output.result(list, (rows) =>
          rows.length === 0
            ? 'No crawls.'
            : formatTable(
                ['id', 'status', 'url', 'pages', 'max', 'report', 'created'],
                rows.map((c) => [c.id, c.status, c.url, c.pagesCrawled, c.maxPages, c.reportId, c.createdAt]),
              ),
        );
      }),
    );

  withClientFlags(crawls.command('get').description('Show one crawl.'))
    .argument('<crawlId>', 'crawl id')
    .action(
      userAction(async ({ session, output }, [crawlId]) => {
        const crawl = await (await session.workspaceClient()).getCrawl({ crawlId: crawlId as string });
        output.result(crawl, (c) =>
          formatFields([
            ['id', c.id],
            ['status', c.status],
            ['url', c.url],
            ['mode', c.mode],
            ['pages', `${c.pagesCrawled} of at most ${c.maxPages}`],
            ['progress', c.progress && crawlProgressBar(c.progress, c.maxPages, '').text],
            ['credits', c.creditsCharged === null ? `${c.creditsReserved} reserved` : `${c.creditsCharged} charged`],
            ['report', c.reportId],
            ['error', c.error],
            ['created', c.createdAt],
            ['finished', c.finishedAt],
          ]),
        );
      }),
    );

  withClientFlags(crawls.command('watch').description('Follow a crawl to its end with a progress bar, then print its report summary.'))
    .argument('<crawlId>', 'crawl id')
    .action(
      userAction(async ({ session, output }, [crawlId]) => {
        const client = await session.workspaceClient();
        return followCrawl(client, await client.getCrawl({ crawlId: crawlId as string }), output);
      }),
    );

  withClientFlags(crawls.command('cancel').description('Cancel a crawl; pages crawled so far are charged and kept in a partial report.'))
    .argument('<crawlId>', 'crawl id')
    .action(
      userAction(async ({ session, output }, [crawlId]) => {
        const crawl = await (await session.workspaceClient()).cancelCrawl({ crawlId: crawlId as string });
        output.result(crawl, (c) => `Crawl ${c.id} is ${c.status}.`);
      }),
    );
}
