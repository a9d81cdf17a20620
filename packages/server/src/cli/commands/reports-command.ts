import { writeFile } from 'node:fs/promises';
import { ExportQuery, ListReportPagesQuery } from '@loupe/contract';
import { type Command, Option } from 'commander';
import type { z } from 'zod';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { auditProjectId } from '../project-references.ts';
import { formatReportSummary } from '../report-summary.ts';
import { formatTable } from '../table.ts';
import { userAction, withClientFlags } from '../user-command.ts';

type PagesQuery = z.output<typeof ListReportPagesQuery>;

interface PagesFlags extends ListFlags {
  sort?: PagesQuery['sort'];
  order?: PagesQuery['order'];
  rule?: string;
  statusClass?: PagesQuery['statusClass'];
}

/** `loupe reports`: audit reports of the workspace. */
export function registerReportsCommand(program: Command): void {
  const reports = program.command('reports').description('Audit reports: list, read, page index, export.');

  withListFlags(withClientFlags(reports.command('list').description('List reports, newest first.')))
    .option('--project <project>', 'only reports of this audit project (id or name)')
    .action(
      userAction<ListFlags & { project?: string }>(async ({ session, output }, _args, options) => {
        const client = await session.workspaceClient();
        const projectId = options.project === undefined ? undefined : await auditProjectId(client, options.project);
        const list = await listAll(options, (page) => client.all.listReports({ projectId, ...page }));
        output.result(list, (rows) =>
          rows.length === 0
            ? 'No reports yet: loupe crawl <url>'
            : formatTable(
                ['id', 'site', 'score', 'grade', 'pages', 'errors', 'warnings', 'notices', 'created'],
                rows.map((r) => [r.id, r.url, r.score, r.grade, r.pages, r.errors, r.warnings, r.notices, r.createdAt]),
              ),
        );
      }),
    );

  withClientFlags(reports.command('get').description('Show a report: score, grade, pages, findings by severity, top issues.'))
    .argument('<reportId>', 'report id')
    .action(
      userAction(async ({ session, output }, [reportId]) => {
        const report = await (await session.workspaceClient()).getReport({ reportId: reportId as string });
        output.result(report, (r) => formatReportSummary(r));
      }),
    );

  const query = ListReportPagesQuery.shape;
  withListFlags(withClientFlags(reports.command('pages').description("A report's page index, sorted and filtered.")))
    .argument('<reportId>', 'report id')
    .addOption(new Option('--sort <column>', 'sort by').choices(query.sort.unwrap().options))
    .addOption(new Option('--order <order>', 'ascending or descending').choices(query.order.unwrap().options))
    .option('--rule <ruleId>', 'only pages a rule fired on, e.g. titles/missing')
    .addOption(new Option('--status-class <class>', 'only pages answering in this class').choices(query.statusClass.unwrap().options))
    .action(
      userAction<PagesFlags>(async ({ session, output }, [reportId], options) => {
        const client = await session.workspaceClient();
        const list = await listAll(options, (page) =>
          client.all.listReportPages({
            reportId: reportId as string,
            sort: options.sort,
            order: options.order,
            ruleId: options.rule,
            statusClass: options.statusClass,
            ...page,
          }),
        );
        output.result(list, (rows) =>
          rows.length === 0
            ? 'No pages match.'
            : formatTable(
                ['status', 'score', 'errors', 'warnings', 'notices', 'url', 'title'],
                rows.map((p) => [
                  p.status ?? p.fetchError,
                  p.score === null ? null : Math.round(p.score),
                  p.errors,
                  p.warnings,
                  p.notices,
                  p.url,
                  p.title,
                ]),
              ),
        );
      }),
    );

  withClientFlags(reports.command('export').description('Export a report: CSV (one row per finding) or JSON (report, pages, findings).'))
    .argument('<reportId>', 'report id')
    .addOption(new Option('--format <format>', 'file format').choices(ExportQuery.shape.format.unwrap().options).default('json'))
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(
      userAction<{ format: 'csv' | 'json'; output?: string }>(async ({ session, output }, [reportId], options) => {
        const exported = await (await session.workspaceClient()).exportReport({ reportId: reportId as string, format: options.format });
        const text = typeof exported === 'string' ? exported : JSON.stringify(exported, null, 2);
        if (options.output) {
          await writeFile(options.output, text);
          output.result(
            { written: options.output, format: options.format, bytes: Buffer.byteLength(text) },
            (w) => `Wrote ${w.bytes} bytes to ${w.written}.`,
          );
        } else if (output.json) {
          output.result(exported, () => '');
        } else {
          output.file(text);
        }
      }),
    );
}
