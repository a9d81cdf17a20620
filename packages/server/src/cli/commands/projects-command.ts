import type { Command } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { imageProjectId } from '../project-references.ts';
import { formatBytes, formatFields, formatTable } from '../table.ts';
import { userAction, withClientFlags } from '../user-command.ts';

/** `loupe projects`: the image projects of the key's workspace. */
export function registerProjectsCommand(program: Command): void {
  const projects = program.command('projects').description('Image projects: list, create, show, update, delete.');

  withListFlags(withClientFlags(projects.command('list').description('List the image projects.'))).action(
    userAction<ListFlags>(async ({ session, output }, _args, options) => {
      const client = session.client();
      const list = await listAll(options, (page) => client.all.listImageProjects(page));
      output.result(list, (rows) =>
        rows.length === 0
          ? 'No image projects yet: loupe projects create <name>'
          : formatTable(
              ['id', 'name', 'slug', 'custom domain', 'signed urls'],
              rows.map((p) => [p.id, p.name, p.slug, p.customDomain, p.requireSignedUrls ? 'required' : 'optional']),
            ),
      );
    }),
  );

  withClientFlags(projects.command('create').description('Create an image project (its slug is made from the name).'))
    .argument('<name>', 'the project name, 1–100 characters')
    .action(
      userAction(async ({ session, output }, [name]) => {
        const project = await session.client().createImageProject({ body: { name: name as string } });
        output.result(
          project,
          (p) =>
            `Created project ${p.name}\n${formatFields([
              ['id', p.id],
              ['slug', p.slug],
            ])}`,
        );
      }),
    );

  withClientFlags(projects.command('get').description('Show an image project with its image count and size.'))
    .argument('<project>', 'project id or slug')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = session.client();
        const project = await client.getImageProject({ projectId: await imageProjectId(client, reference as string) });
        output.result(project, (p) =>
          formatFields([
            ['id', p.id],
            ['name', p.name],
            ['slug', p.slug],
            ['custom domain', p.customDomain],
            ['plan', p.plan],
            ['signed urls', p.requireSignedUrls ? 'required' : 'optional'],
            ['enlarge', p.enlarge],
            ['images', p.stats.imageCount],
            ['total size', formatBytes(p.stats.totalSize)],
            ['created', p.createdAt],
          ]),
        );
      }),
    );

  withClientFlags(
    projects.command('update').description('Rename an image project, set or clear its custom domain, or set its enlargement default.'),
  )
    .argument('<project>', 'project id or slug')
    .option('--name <name>', 'the new name')
    .option('--custom-domain <host>', 'a hostname serving the project\'s images; "none" clears it')
    .option('--enlarge <allow|never>', 'whether resizes may make a picture larger than its original, unless a URL or preset says')
    .action(
      userAction<{ name?: string; customDomain?: string; enlarge?: string }>(async ({ session, output }, [reference], options) => {
        const body = {
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.customDomain !== undefined ? { customDomain: options.customDomain === 'none' ? null : options.customDomain } : {}),
          // The server checks the value, and answers a wrong one with its field error.
          ...(options.enlarge !== undefined ? { enlarge: options.enlarge as 'allow' | 'never' } : {}),
        };
        const client = session.client();
        const project = await client.updateImageProject({ projectId: await imageProjectId(client, reference as string), body });
        output.result(project, (p) => `Updated project ${p.name} (${p.id}).`);
      }),
    );

  withClientFlags(projects.command('delete').description('Delete an image project with all its presets and images.'))
    .argument('<project>', 'project id or slug')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = session.client();
        const answer = await client.deleteImageProject({ projectId: await imageProjectId(client, reference as string) });
        output.result(answer, () => `Deleted project ${String(reference)}.`);
      }),
    );
}
