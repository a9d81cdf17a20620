import type { Schedule } from '@loupe/contract';
import { type Command, Option } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { auditProjectId } from '../project-references.ts';
import { formatFields, formatTable } from '../table.ts';
import { userAction, wholeNumber, withClientFlags } from '../user-command.ts';

interface ScheduleFlags {
  timezone?: string;
  maxPages?: number;
}

function describeSchedule(s: Schedule): string {
  return formatFields([
    ['id', s.id],
    ['cron', `${s.cron} (${s.timezone})`],
    ['enabled', s.enabled ? 'yes' : 'no'],
    ['crawl', Object.keys(s.crawl).length === 0 ? null : JSON.stringify(s.crawl)],
    ['next run', s.nextRunAt],
    ['last run', s.lastRun && `${s.lastRun.at} ${s.lastRun.outcome}${s.lastRun.reason ? `: ${s.lastRun.reason}` : ''}`],
  ]);
}

/** `loupe schedules`: regular crawls of an audit project. */
export function registerSchedulesCommand(program: Command): void {
  const schedules = program.command('schedules').description("An audit project's regular crawls: list, create, update, delete.");
  const crawlOptions = (command: Command) =>
    command
      .option('--timezone <zone>', "IANA time zone the expression is read in (default: the workspace's)")
      .option('--max-pages <n>', 'pages each run crawls at most', wholeNumber(1, 100_000));

  withListFlags(withClientFlags(schedules.command('list').description("List a project's schedules with their next and last runs.")))
    .argument('<project>', 'audit project id or name')
    .action(
      userAction<ListFlags>(async ({ session, output }, [reference], options) => {
        const client = await session.workspaceClient();
        const projectId = await auditProjectId(client, reference as string);
        const list = await listAll(options, (page) => client.all.listSchedules({ projectId, ...page }));
        output.result(list, (rows) =>
          rows.length === 0
            ? `No schedules yet: loupe schedules create ${String(reference)} "@daily"`
            : formatTable(
                ['id', 'cron', 'timezone', 'enabled', 'next run', 'last run'],
                rows.map((s) => [s.id, s.cron, s.timezone, s.enabled ? 'yes' : 'no', s.nextRunAt, s.lastRun?.outcome]),
              ),
        );
      }),
    );

  crawlOptions(withClientFlags(schedules.command('create').description("Crawl a project's site whenever a cron expression comes due.")))
    .argument('<project>', 'audit project id or name')
    .argument('<cron>', 'minute hour day-of-month month day-of-week, or @daily, @weekly…')
    .option('--disabled', 'save it without running it yet')
    .action(
      userAction<ScheduleFlags & { disabled?: boolean }>(async ({ session, output }, [reference, cron], options) => {
        const client = await session.workspaceClient();
        const schedule = await client.createSchedule({
          projectId: await auditProjectId(client, reference as string),
          body: {
            cron: cron as string,
            timezone: options.timezone,
            enabled: options.disabled ? false : undefined,
            crawl: options.maxPages === undefined ? undefined : { maxPages: options.maxPages },
          },
        });
        output.result(schedule, (s) => `Created schedule\n${describeSchedule(s)}`);
      }),
    );

  crawlOptions(withClientFlags(schedules.command('update').description('Change, enable or disable a schedule.')))
    .argument('<project>', 'audit project id or name')
    .argument('<scheduleId>', 'schedule id (loupe schedules list <project>)')
    .option('--cron <expression>', 'the new cron expression')
    .option('--enable', 'run it from now on')
    .addOption(new Option('--disable', 'stop running it, keeping it').conflicts('enable'))
    .action(
      userAction<ScheduleFlags & { cron?: string; enable?: boolean; disable?: boolean }>(
        async ({ session, output }, [reference, scheduleId], options) => {
          const client = await session.workspaceClient();
          const enabled = options.enable ? true : options.disable ? false : undefined;
          const schedule = await client.updateSchedule({
            projectId: await auditProjectId(client, reference as string),
            scheduleId: scheduleId as string,
            body: {
              ...(options.cron !== undefined ? { cron: options.cron } : {}),
              ...(options.timezone !== undefined ? { timezone: options.timezone } : {}),
              ...(enabled !== undefined ? { enabled } : {}),
              ...(options.maxPages !== undefined ? { crawl: { maxPages: options.maxPages } } : {}),
            },
          });
          output.result(schedule, (s) => `Updated schedule\n${describeSchedule(s)}`);
        },
      ),
    );

  withClientFlags(schedules.command('delete').description('Delete a schedule; crawls it started stay.'))
    .argument('<project>', 'audit project id or name')
    .argument('<scheduleId>', 'schedule id (loupe schedules list <project>)')
    .action(
      userAction(async ({ session, output }, [reference, scheduleId]) => {
        const client = await session.workspaceClient();
        const answer = await client.deleteSchedule({
          projectId: await auditProjectId(client, reference as string),
          scheduleId: scheduleId as string,
        });
        output.result(answer, () => `Deleted schedule ${String(scheduleId)}.`);
      }),
    );
}
