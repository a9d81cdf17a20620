import { setTimeout as delay } from 'node:timers/promises';
import { LoupeError, type SearchIndexState } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { Command } from 'commander';
import { listAll } from '../list-all.ts';
import type { Output } from '../output.ts';
import { auditProjectId } from '../project-references.ts';
import { userAction, wholeNumber, withClientFlags } from '../user-command.ts';

/** How often `--build` asks whether the build is done: the API has no event for it. */
const BUILD_POLL_MS = 250;

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };

/** A hit's HTML snippet as terminal text: entities decoded, the matches bold on a terminal. */
export function snippetText(html: string, bold: boolean): string {
  return html
    .replace(/<mark>/g, bold ? '\x1b[1m' : '')
    .replace(/<\/mark>/g, bold ? '\x1b[22m' : '')
    .replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => entities[name]!);
}

async function buildIndex(client: LoupeClient, projectId: string, output: Output): Promise<SearchIndexState> {
  let state = await client.buildSearchIndex({ projectId });
  output.note(`Building the search index of project ${projectId}…`);
  while (state.building !== null) {
    await delay(BUILD_POLL_MS);
    state = await client.getSearchIndex({ projectId });
  }
  if (state.state === 'failed') {
    throw new LoupeError('internal_error', { message: `The search index build failed: ${state.error ?? 'no reason given'}` });
  }
  output.note(`Indexed ${state.pages} pages.`);
  return state;
}

/** `loupe search`: full-text search over the pages of an audit project's newest report. */
export function registerSearchCommand(program: Command): void {
  withClientFlags(program.command('search').description('Search the pages of an audit project: words, "a phrase", -exclude, a OR b.'))
    .argument('<project>', 'audit project id or name')
    .argument('<query>', 'the search, quoted when it has spaces')
    .option('--limit <n>', 'most hits to show (default 10, at most 1000)', wholeNumber(1, 1000), 10)
    .option('--build', 'build the index from the newest report first, and wait for it')
    .action(
      userAction<{ limit: number; build?: boolean }>(async ({ session, output }, [project, q], options) => {
        const client = await session.workspaceClient();
        const projectId = await auditProjectId(client, project as string);
        if (options.build) await buildIndex(client, projectId, output);
        const hits = await listAll(options, (page) => client.all.searchProject({ projectId, q: q as string, ...page }));
        output.result(hits, (rows) => {
          if (rows.length === 0) return 'No pages match.';
          return rows
            .map(
              (hit, index) =>
                `${index + 1}. ${hit.title ?? '(no title)'}\n   ${hit.url}\n   ${snippetText(hit.snippet, output.stdoutIsTty)}`,
            )
            .join('\n\n');
        });
      }),
    );
}
