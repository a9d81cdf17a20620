import { type AlertChannelInput, AlertDeliveryStatus, type AlertSettings } from '@loupe/contract';
import { type Command, Option } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { auditProjectId } from '../project-references.ts';
import { formatFields, formatTable } from '../table.ts';
import { repeatable, userAction, wholeNumber, withClientFlags } from '../user-command.ts';

interface SetFlags {
  disabled?: boolean;
  crawlFailed?: boolean;
  scoreBelow?: number;
  scoreDropBy?: number;
  newErrors?: boolean;
  webhook?: string[];
  email?: string[];
}

function describeSettings(a: AlertSettings): string {
  const conditions = [
    a.conditions.crawlFailed && 'crawl failed',
    a.conditions.scoreBelow !== null && `score below ${a.conditions.scoreBelow}`,
    a.conditions.scoreDropBy !== null && `score drop by ${a.conditions.scoreDropBy}`,
    a.conditions.newErrors && 'new errors',
  ].filter(Boolean);
  const channels = a.channels.map((c) =>
    c.type === 'webhook' ? `webhook ${c.url} (secret ${c.secret ?? c.secretPreview})` : `email ${c.to.join(', ')}`,
  );
  return formatFields([
    ['enabled', a.enabled ? 'yes' : 'no'],
    ['conditions', conditions.join(', ')],
    ...channels.map((channel, index) => [index === 0 ? 'channels' : '', channel] as const),
  ]);
}

/**
 * The channels the flags name. A webhook or an email channel the settings already have (same
 * URL, same recipients) is sent with its id, so a webhook keeps its secret.
 */
function channelsOf(options: SetFlags, current: AlertSettings): AlertChannelInput[] {
  const webhooks = (options.webhook ?? []).map((url): AlertChannelInput => {
    const kept = current.channels.find((c) => c.type === 'webhook' && c.url === url);
    return { type: 'webhook', url, ...(kept ? { id: kept.id } : {}) };
  });
  if (options.email === undefined) return webhooks;
  const to = options.email;
  const kept = current.channels.find((c) => c.type === 'email' && c.to.join('\n') === to.join('\n'));
  return [...webhooks, { type: 'email', to, ...(kept ? { id: kept.id } : {}) }];
}

/** `loupe alerts`: when an audit project's crawls alert, and where. */
export function registerAlertsCommand(program: Command): void {
  const alerts = program
    .command('alerts')
    .description("An audit project's alerts (crawl failed, score, new errors; webhooks, email): show, set, clear, test, deliveries.");

  withClientFlags(alerts.command('get').description("Show a project's alert settings."))
    .argument('<project>', 'audit project id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const settings = await client.getAlertSettings({ projectId: await auditProjectId(client, reference as string) });
        output.result(settings, describeSettings);
      }),
    );

  withClientFlags(alerts.command('set').description("Replace a project's alert settings: the conditions and channels named, enabled."))
    .argument('<project>', 'audit project id or name')
    .option('--crawl-failed', 'alert when a crawl fails')
    .option('--score-below <score>', 'alert when the health score is below this', wholeNumber(0, 100))
    .option('--score-drop-by <points>', 'alert when the score fell by at least this since the previous report', wholeNumber(1, 100))
    .option('--new-errors', 'alert when errors appear that the previous report did not have')
    .option('--webhook <url>', 'POST each alert here, signed (repeatable); a new one gets a secret, shown once', repeatable)
    .option('--email <address>', 'email each alert to this address (repeatable: one channel to them all)', repeatable)
    .option('--disabled', 'save the settings without sending alerts yet')
    .addHelpText('after', '\nWhat is not named is off. Try the channels with: loupe alerts test <project>')
    .action(
      userAction<SetFlags>(async ({ session, output }, [reference], options) => {
        const client = await session.workspaceClient();
        const projectId = await auditProjectId(client, reference as string);
        const current = await client.getAlertSettings({ projectId });
        const settings = await client.updateAlertSettings({
          projectId,
          body: {
            enabled: !options.disabled,
            conditions: {
              crawlFailed: options.crawlFailed === true,
              scoreBelow: options.scoreBelow ?? null,
              scoreDropBy: options.scoreDropBy ?? null,
              newErrors: options.newErrors === true,
            },
            channels: channelsOf(options, current),
          },
        });
        output.result(settings, describeSettings);
      }),
    );

  withClientFlags(alerts.command('clear').description("Turn a project's alerts off and remove its channels."))
    .argument('<project>', 'audit project id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const settings = await client.updateAlertSettings({
          projectId: await auditProjectId(client, reference as string),
          body: { enabled: false, conditions: {}, channels: [] },
        });
        output.result(settings, () => `Alerts of ${String(reference)} are off, with no channels.`);
      }),
    );

  withClientFlags(alerts.command('test').description('Send a test alert on every channel; see how it went with loupe alerts deliveries.'))
    .argument('<project>', 'audit project id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const deliveries = await client.sendTestAlert({ projectId: await auditProjectId(client, reference as string) });
        output.result(deliveries, (rows) =>
          rows.length === 0
            ? `No channels to test: loupe alerts set ${String(reference)} --webhook <url>`
            : `Queued ${rows.length} test alert${rows.length === 1 ? '' : 's'}: loupe alerts deliveries ${String(reference)}`,
        );
      }),
    );

  withListFlags(withClientFlags(alerts.command('deliveries').description("A project's alert delivery log, newest first.")))
    .argument('<project>', 'audit project id or name')
    .addOption(new Option('--status <status>', 'only deliveries in this state').choices(AlertDeliveryStatus.options))
    .action(
      userAction<ListFlags & { status?: AlertDeliveryStatus }>(async ({ session, output }, [reference], options) => {
        const client = await session.workspaceClient();
        const projectId = await auditProjectId(client, reference as string);
        const list = await listAll(options, (page) => client.all.listAlertDeliveries({ projectId, status: options.status, ...page }));
        output.result(list, (rows) =>
          rows.length === 0
            ? 'No alerts sent yet.'
            : formatTable(
                ['id', 'channel', 'target', 'status', 'attempts', 'test', 'error', 'created'],
                rows.map((d) => [d.id, d.channel.type, d.channel.target, d.status, d.attempts, d.test, d.lastError, d.createdAt]),
              ),
        );
      }),
    );
}
