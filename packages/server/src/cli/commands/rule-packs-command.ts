import { readFile } from 'node:fs/promises';
import { Id, LoupeError, type RulePackInput, type RulePackPreview } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { Command } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { auditProjectId } from '../project-references.ts';
import { formatFields, formatTable } from '../table.ts';
import { usageError, userAction, wholeNumber, withClientFlags } from '../user-command.ts';

/**
 * A pack file's contents (schema loupe.rules/v1, as JSON), left for the server to validate:
 * the CLI only says when the file cannot be read or is not JSON.
 */
async function readPackFile(file: string): Promise<RulePackInput> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw usageError('file', `Cannot read the pack file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    const pack = JSON.parse(text) as unknown;
    if (typeof pack !== 'object' || pack === null || Array.isArray(pack)) throw new Error('not an object');
    return pack as RulePackInput;
  } catch (error) {
    throw usageError('file', `${file} is not a JSON rule pack (schema loupe.rules/v1): ${(error as Error).message}.`);
  }
}

/** A saved pack given by id or by name (names are unique in a workspace). */
async function rulePackId(client: LoupeClient, reference: string): Promise<string> {
  if (Id.safeParse(reference).success) return reference;
  for await (const pack of client.all.listRulePacks({ limit: 100 })) {
    if (pack.name === reference) return pack.id;
  }
  throw new LoupeError('not_found', { message: `No rule pack with the id or name "${reference}": loupe rule-packs list shows them.` });
}

function describePreview(p: RulePackPreview): string {
  const table = formatTable(
    ['rule', 'severity', 'in scope', 'failing', 'n/a', 'sample', 'error'],
    p.rules.map((r) => [r.ruleId, r.severity, r.pagesInScope, r.pagesFailing, r.pagesNotApplicable, r.samples[0]?.url, r.error?.message]),
  );
  return `Ran over ${p.pagesEvaluated} pages of report ${p.reportId}.\n${table}`;
}

/** `loupe rule-packs`: custom declarative rules crawls run beside the built-in checks. */
export function registerRulePacksCommand(program: Command): void {
  const packs = program
    .command('rule-packs')
    .description('Custom rule packs: list, show, create from a file, validate, preview on a crawled project, delete.');

  withListFlags(withClientFlags(packs.command('list').description("List the workspace's rule packs."))).action(
    userAction<ListFlags>(async ({ session, output }, _args, options) => {
      const client = await session.workspaceClient();
      const list = await listAll(options, (page) => client.all.listRulePacks(page));
      output.result(list, (rows) =>
        rows.length === 0
          ? 'No rule packs yet: loupe rule-packs create <file.json>'
          : formatTable(
              ['id', 'name', 'rules', 'updated'],
              rows.map((p) => [p.id, p.name, p.ruleCount, p.updatedAt]),
            ),
      );
    }),
  );

  withClientFlags(packs.command('get').description('Show a rule pack with its rules (--json: the pack as stored).'))
    .argument('<pack>', 'rule pack id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const pack = await client.getRulePack({ packId: await rulePackId(client, reference as string) });
        output.result(
          pack,
          (p) =>
            `${formatFields([
              ['id', p.id],
              ['name', p.name],
              ['description', p.description],
              ['updated', p.updatedAt],
            ])}\n${formatTable(
              ['rule', 'severity', 'enabled', 'title'],
              p.pack.rules.map((r) => [r.id, r.severity, r.enabled, r.title]),
            )}`,
        );
      }),
    );

  withClientFlags(packs.command('validate').description('Check a pack file exactly as saving it would, without saving it.'))
    .argument('<file>', 'the pack, JSON of schema loupe.rules/v1')
    .action(
      userAction(async ({ session, output }, [file]) => {
        const client = await session.workspaceClient();
        const validity = await client.validateRulePack({ body: { pack: await readPackFile(file as string) } });
        output.result(validity, (v) => `${String(file)} is valid: ${v.ruleCount} rules.`);
      }),
    );

  withClientFlags(
    packs.command('create').description('Save a pack file as a rule pack; attach it with loupe audit-projects update --rule-pack.'),
  )
    .argument('<file>', 'the pack, JSON of schema loupe.rules/v1')
    .option('--name <name>', "the saved pack's name (default: the pack's own)")
    .option('--description <text>', 'what the pack checks')
    .action(
      userAction<{ name?: string; description?: string }>(async ({ session, output }, [file], options) => {
        const client = await session.workspaceClient();
        const pack = await readPackFile(file as string);
        const name = options.name ?? (typeof pack.name === 'string' ? pack.name : undefined);
        if (name === undefined) throw usageError('name', 'The pack has no name: give one with --name.');
        const saved = await client.createRulePack({ body: { name, description: options.description, pack } });
        output.result(saved, (p) => `Created rule pack ${p.name} (${p.id}): ${p.ruleCount} rules.`);
      }),
    );

  withClientFlags(
    packs
      .command('preview')
      .description("Run a pack (saved, or a file) over the pages of a project's newest report: what each rule would find."),
  )
    .argument('<pack>', 'a saved pack (id or name), or a pack file ending in .json')
    .requiredOption('--project <project>', 'audit project (id or name) whose newest report is used')
    .option('--samples <n>', 'pages named per rule (0–20, default 5)', wholeNumber(0, 20))
    .action(
      userAction<{ project: string; samples?: number }>(async ({ session, output }, [reference], options) => {
        const client = await session.workspaceClient();
        const projectId = await auditProjectId(client, options.project);
        const body = { projectId, samples: options.samples };
        const preview = (reference as string).endsWith('.json')
          ? await client.previewUnsavedRulePack({ body: { ...body, pack: await readPackFile(reference as string) } })
          : await client.previewRulePack({ packId: await rulePackId(client, reference as string), body });
        output.result(preview, describePreview);
      }),
    );

  withClientFlags(packs.command('delete').description('Delete a rule pack; reports already built keep their findings.'))
    .argument('<pack>', 'rule pack id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const answer = await client.deleteRulePack({ packId: await rulePackId(client, reference as string) });
        output.result(answer, () => `Deleted rule pack ${String(reference)}.`);
      }),
    );
}
