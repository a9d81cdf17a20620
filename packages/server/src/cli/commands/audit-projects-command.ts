import type { AuditProject, CrawlDefaults } from '@loupe/contract';
import type { Command } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { auditProjectId } from '../project-references.ts';
import { formatFields, formatTable } from '../table.ts';
import { repeatable, userAction, wholeNumber, withClientFlags } from '../user-command.ts';

interface DefaultsFlags {
  maxPages?: number;
  include?: string[];
  exclude?: string[];
  rulePack?: string[];
}

/** The crawl-default flags create and update share. */
function withDefaultsFlags(command: Command): Command {
  return command
    .option('--max-pages <n>', "pages each crawl crawls at most (capped by the plan's)", wholeNumber(1, 100_000))
    .option('--include <glob>', 'crawls take only URLs whose path matches, e.g. /docs/** (repeatable)', repeatable)
    .option('--exclude <glob>', 'crawls never take URLs whose path matches (repeatable)', repeatable)
    .option('--rule-pack <packId>', 'a rule pack every crawl runs (repeatable; loupe rule-packs list)', repeatable);
}

/** The defaults the flags say, over `current` (an update changes only what it names). */
function crawlDefaults(options: DefaultsFlags, current: CrawlDefaults = {}): CrawlDefaults | undefined {
  const changes = {
    ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
    ...(options.include !== undefined ? { include: options.include } : {}),
    ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
  };
  return Object.keys(changes).length === 0 ? undefined : { ...current, ...changes };
}

function describeProject(p: AuditProject): string {
  return formatFields([
    ['id', p.id],
    ['name', p.name],
    ['site', p.siteUrl],
    ['crawl defaults', Object.keys(p.crawlDefaults).length === 0 ? null : JSON.stringify(p.crawlDefaults)],
    ['rule packs', p.rulePackIds.join(', ')],
    ['latest report', p.latestReport && `${p.latestReport.id} (score ${p.latestReport.score ?? '-'}, ${p.latestReport.createdAt})`],
    ['created', p.createdAt],
  ]);
}

/** `loupe audit-projects`: sites the workspace audits, with their crawl defaults and rule packs. */
export function registerAuditProjectsCommand(program: Command): void {
  const projects = program
    .command('audit-projects')
    .description('Audit projects (a site, its crawl defaults and rule packs): list, create, show, update, delete.');

  withListFlags(withClientFlags(projects.command('list').description('List the audit projects, oldest first.'))).action(
    userAction<ListFlags>(async ({ session, output }, _args, options) => {
      const client = await session.workspaceClient();
      const list = await listAll(options, (page) => client.all.listAuditProjects(page));
      output.result(list, (rows) =>
        rows.length === 0
          ? 'No audit projects yet: loupe audit-projects create <name> --site <url>'
          : formatTable(
              ['id', 'name', 'site', 'score', 'latest report'],
              rows.map((p) => [p.id, p.name, p.siteUrl, p.latestReport?.score, p.latestReport?.createdAt]),
            ),
      );
    }),
  );

  withDefaultsFlags(
    withClientFlags(
      projects.command('create').description('Create an audit project for a site; crawl it with loupe crawl <url> --project <name>.'),
    ),
  )
    .argument('<name>', 'the project name, 1–100 characters')
    .requiredOption('--site <url>', 'the site the project audits, http(s)')
    .action(
      userAction<DefaultsFlags & { site: string }>(async ({ session, output }, [name], options) => {
        const client = await session.workspaceClient();
        const project = await client.createAuditProject({
          body: { name: name as string, siteUrl: options.site, crawlDefaults: crawlDefaults(options), rulePackIds: options.rulePack },
        });
        output.result(project, (p) => `Created audit project ${p.name}\n${describeProject(p)}`);
      }),
    );

  withClientFlags(projects.command('get').description('Show an audit project: site, crawl defaults, rule packs, newest report.'))
    .argument('<project>', 'project id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const project = await client.getAuditProject({ projectId: await auditProjectId(client, reference as string) });
        output.result(project, describeProject);
      }),
    );

  withDefaultsFlags(
    withClientFlags(
      projects.command('update').description('Rename a project, move it to another site, change its crawl defaults or packs.'),
    ),
  )
    .argument('<project>', 'project id or name')
    .option('--name <name>', 'the new name')
    .option('--site <url>', 'the new site')
    .option('--no-rule-packs', 'detach every rule pack')
    .addHelpText('after', '\nCrawl defaults not named keep their value; --rule-pack replaces the attached packs.')
    .action(
      userAction<DefaultsFlags & { name?: string; site?: string; rulePacks: boolean }>(
        async ({ session, output }, [reference], options) => {
          const client = await session.workspaceClient();
          const projectId = await auditProjectId(client, reference as string);
          const defaults = crawlDefaults(options) && crawlDefaults(options, (await client.getAuditProject({ projectId })).crawlDefaults);
          const project = await client.updateAuditProject({
            projectId,
            body: {
              ...(options.name !== undefined ? { name: options.name } : {}),
              ...(options.site !== undefined ? { siteUrl: options.site } : {}),
              ...(defaults !== undefined ? { crawlDefaults: defaults } : {}),
              ...(options.rulePack !== undefined ? { rulePackIds: options.rulePack } : {}),
              ...(!options.rulePacks ? { rulePackIds: [] } : {}),
            },
          });
          output.result(project, (p) => `Updated audit project ${p.name}\n${describeProject(p)}`);
        },
      ),
    );

  withClientFlags(
    projects
      .command('delete')
      .description('Delete an audit project with its schedules, alert settings and search index; its reports stay.'),
  )
    .argument('<project>', 'project id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const answer = await client.deleteAuditProject({ projectId: await auditProjectId(client, reference as string) });
        output.result(answer, () => `Deleted audit project ${String(reference)}.`);
      }),
    );
}
