import type { ReportDiff } from '@loupe/contract';
import type { Command } from 'commander';
import { formatTable } from '../table.ts';
import { userAction, wholeNumber, withClientFlags } from '../user-command.ts';

function signed(delta: number | null): string {
  if (delta === null) return 'n/a';
  return delta > 0 ? `+${delta}` : String(delta);
}

function issueLines(title: string, changes: ReportDiff['issues']['new']): string[] {
  if (changes.total === 0) return [`${title}: none`];
  return [
    `${title}: ${changes.total} (${changes.rules} rules)`,
    formatTable(
      ['severity', 'rule', 'issue', 'urls'],
      changes.byRule.map((group) => [group.severity, group.ruleId, group.title, group.total]),
    ),
  ];
}

function listed(title: string, list: { total: number; urls: string[] }): string[] {
  if (list.total === 0) return [];
  const more = list.total > list.urls.length ? [`  … and ${list.total - list.urls.length} more`] : [];
  return [`${title}: ${list.total}`, ...list.urls.map((url) => `  ${url}`), ...more];
}

function missing(title: string, list: ReportDiff['pages']['gone']): string[] {
  if (list.total === 0) return [];
  const more = list.total > list.pages.length ? [`  … and ${list.total - list.pages.length} more`] : [];
  return [`${title}: ${list.total}`, ...list.pages.map((page) => `  ${page.url}  (${page.cause})`), ...more];
}

/** An HTTP status with what went wrong, or only what went wrong when there was no answer. */
function statusText(status: number | null, cause: string | null): string {
  if (status === null) return cause ?? 'no answer';
  return cause ? `${status} (${cause})` : String(status);
}

/** The diff for people: score and severities before and after, then what changed. */
export function formatDiff(diff: ReportDiff): string {
  const severities = diff.severities;
  const sections = [
    formatTable(
      ['', 'before', 'after', 'change'],
      [
        ['score', diff.score.before ?? 'n/a', diff.score.after ?? 'n/a', signed(diff.score.delta)],
        ['grade', diff.old.grade, diff.new.grade, ''],
        ['pages', diff.pages.before, diff.pages.after, signed(diff.pages.after - diff.pages.before)],
        ['errors', severities.errors.before, severities.errors.after, signed(severities.errors.delta)],
        ['warnings', severities.warnings.before, severities.warnings.after, signed(severities.warnings.delta)],
        ['notices', severities.notices.before, severities.notices.after, signed(severities.notices.delta)],
      ],
    ),
    issueLines('New issues', diff.issues.new).join('\n'),
    issueLines('Resolved issues', diff.issues.resolved).join('\n'),
  ];
  if (diff.issues.onGonePages.total > 0) sections.push(issueLines('Issues gone with their pages', diff.issues.onGonePages).join('\n'));
  const pages = [
    ...listed('Pages added', diff.pages.added),
    ...listed('Pages removed', diff.pages.removed),
    ...missing('New URLs broken', diff.pages.broken),
    ...missing('Pages gone', diff.pages.gone),
  ];
  if (pages.length > 0) sections.push(pages.join('\n'));
  if (diff.changed.status.total > 0) {
    sections.push(
      `Status changed: ${diff.changed.status.total}\n${formatTable(
        ['url', 'before', 'after'],
        diff.changed.status.pages.map((p) => [p.url, statusText(p.before, p.beforeCause), statusText(p.after, p.afterCause)]),
      )}`,
    );
  }
  if (diff.changed.title.total > 0) {
    sections.push(
      `Title changed: ${diff.changed.title.total}\n${formatTable(
        ['url', 'before', 'after'],
        diff.changed.title.pages.map((p) => [p.url, p.before, p.after]),
      )}`,
    );
  }
  return `Comparing ${diff.old.id} (${diff.old.createdAt}) with ${diff.new.id} (${diff.new.createdAt})\n\n${sections.join('\n\n')}`;
}

/** `loupe diff`: what changed between two reports. */
export function registerDiffCommand(program: Command): void {
  withClientFlags(program.command('diff').description('Compare two reports: score, pages, new and resolved issues.'))
    .argument('<old>', 'the earlier report id')
    .argument('<new>', 'the later report id')
    .option('--allow-cross-site', 'compare reports of two different sites (pages matched by path)')
    .option('--limit <n>', 'most entries in each list, 1–1000 (default 100)', wholeNumber(1, 1000))
    .action(
      userAction<{ allowCrossSite?: boolean; limit?: number }>(async ({ session, output }, [oldId, newId], options) => {
        const diff = await (await session.workspaceClient()).diffReports({
          old: oldId as string,
          new: newId as string,
          allowCrossSite: options.allowCrossSite,
          limit: options.limit,
        });
        output.result(diff, formatDiff);
      }),
    );
}
