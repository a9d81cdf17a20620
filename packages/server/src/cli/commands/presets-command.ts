import { Id, LoupeError, type Transforms } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { Command } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { imageProjectId } from '../project-references.ts';
import { formatTable } from '../table.ts';
import { parseTransforms, transformHelp } from '../transform-flags.ts';
import { repeatable, userAction, withClientFlags } from '../user-command.ts';

interface ProjectFlag {
  project: string;
}

function describeTransforms(transforms: Record<string, unknown>): string {
  return Object.entries(transforms)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
}

/** A preset given by id or by name (names are unique in a project). */
async function presetId(client: LoupeClient, projectId: string, reference: string): Promise<string> {
  if (Id.safeParse(reference).success) return reference;
  for await (const preset of client.all.listPresets({ projectId, limit: 100 })) {
    if (preset.name === reference) return preset.id;
  }
  throw new LoupeError('not_found', {
    message: `No preset named "${reference}" in project ${projectId}: loupe presets list --project ${projectId} shows them.`,
  });
}

/** `loupe presets`: named transform configurations of an image project. */
export function registerPresetsCommand(program: Command): void {
  const presets = program.command('presets').description('Presets (named transforms, ?t=<name>): list, create, show, update, delete.');
  const projectOption = ['--project <project>', 'the image project: id or slug'] as const;

  withListFlags(withClientFlags(presets.command('list').description("List a project's presets.")))
    .requiredOption(...projectOption)
    .action(
      userAction<ProjectFlag & ListFlags>(async ({ session, output }, _args, options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const list = await listAll(options, (page) => client.all.listPresets({ projectId, ...page }));
        output.result(list, (rows) =>
          rows.length === 0
            ? 'No presets yet: loupe presets create <name> --project <id> -t width=300'
            : formatTable(
                ['id', 'name', 'transforms'],
                rows.map((p) => [p.id, p.name, describeTransforms(p.transforms)]),
              ),
        );
      }),
    );

  withClientFlags(presets.command('create').description('Create a preset (409 if the name is taken).'))
    .argument('<name>', '1–64 letters, digits, hyphens or underscores')
    .requiredOption(...projectOption)
    .requiredOption('-t, --transform <name=value>', transformHelp, repeatable)
    .action(
      userAction<ProjectFlag & { transform: string[] }>(async ({ session, output }, [name], options) => {
        const client = session.client();
        const preset = await client.createPreset({
          projectId: await imageProjectId(client, options.project),
          body: { name: name as string, transforms: parseTransforms(options.transform) as Transforms },
        });
        output.result(preset, (p) => `Created preset ${p.name} (${p.id}): ${describeTransforms(p.transforms)}`);
      }),
    );

  withClientFlags(presets.command('get').description('Show one preset.'))
    .argument('<preset>', 'preset id or name')
    .requiredOption(...projectOption)
    .action(
      userAction<ProjectFlag>(async ({ session, output }, [reference], options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const id = await presetId(client, projectId, reference as string);
        const preset = await client.getPreset({ projectId, presetId: id });
        output.result(preset, (p) => `${p.name} (${p.id}): ${describeTransforms(p.transforms)}`);
      }),
    );

  withClientFlags(
    presets.command('update').description('Rename a preset or replace its transforms; images delivered with it change at once.'),
  )
    .argument('<preset>', 'preset id or name')
    .requiredOption(...projectOption)
    .option('--name <name>', 'the new name')
    .option('-t, --transform <name=value>', `${transformHelp}; replaces every transform of the preset`, repeatable)
    .action(
      userAction<ProjectFlag & { name?: string; transform?: string[] }>(async ({ session, output }, [reference], options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const id = await presetId(client, projectId, reference as string);
        const preset = await client.updatePreset({
          projectId,
          presetId: id,
          body: {
            ...(options.name !== undefined ? { name: options.name } : {}),
            ...(options.transform !== undefined ? { transforms: parseTransforms(options.transform) as Transforms } : {}),
          },
        });
        output.result(preset, (p) => `Updated preset ${p.name} (${p.id}): ${describeTransforms(p.transforms)}`);
      }),
    );

  withClientFlags(presets.command('delete').description('Delete a preset; URLs naming it answer 400 from then on.'))
    .argument('<preset>', 'preset id or name')
    .requiredOption(...projectOption)
    .action(
      userAction<ProjectFlag>(async ({ session, output }, [reference], options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const id = await presetId(client, projectId, reference as string);
        const answer = await client.deletePreset({ projectId, presetId: id });
        output.result(answer, () => `Deleted preset ${String(reference)}.`);
      }),
    );
}
