import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type ErrorBody, Id, type Image, LoupeError } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { Command } from 'commander';
import { exitCodeFor, exitCodes } from '../exit-codes.ts';
import { collectImageFiles, type ImageFile } from '../image-files.ts';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { errorBody, type Output } from '../output.ts';
import { imageProjectId } from '../project-references.ts';
import { formatBytes, formatFields, formatTable } from '../table.ts';
import { repeatable, usageError, userAction, wholeNumber, withClientFlags } from '../user-command.ts';

type UploadResult = ImageFile & ({ image: Image } | { error: ErrorBody });

interface UploadSummary {
  uploaded: number;
  failed: number;
  /** Files not tried because an earlier failure would fail them all (a bad key, an unknown project). */
  skipped: number;
  bytes: number;
  files: UploadResult[];
}

/** Failures of the file itself; any other (key, project, plan, server) would fail every file. */
const PER_FILE_STATUSES = new Set([400, 413, 415]);

async function uploadAll(client: LoupeClient, projectId: string, files: ImageFile[], concurrency: number, output: Output) {
  // By the files' order, not the order uploads finish in, so runs compare.
  const results: (UploadResult | undefined)[] = [];
  let next = 0;
  let stopped: unknown;
  let firstError: unknown;
  const worker = async () => {
    while (next < files.length && stopped === undefined) {
      const index = next++;
      const item = files[index]!;
      try {
        const data = await readFile(item.file);
        const image = await client.uploadImage({
          projectId,
          upload: { file: data, filename: basename(item.file), fields: { path: item.path } },
        });
        results[index] = { ...item, image };
        output.say(`uploaded  ${item.path}  ${image.width}×${image.height} ${image.format}  ${formatBytes(image.fileSize)}`);
      } catch (error) {
        firstError ??= error;
        results[index] = { ...item, error: errorBody(error) };
        output.say(`failed    ${item.path}  ${errorBody(error).error} (${errorBody(error).code})`);
        if (!(error instanceof LoupeError && PER_FILE_STATUSES.has(error.status))) stopped ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return { results: results.filter((result) => result !== undefined), stopped, firstError };
}

/** An image given by id or by its path in the project. */
async function imageId(client: LoupeClient, projectId: string, reference: string): Promise<string> {
  if (Id.safeParse(reference).success) return reference;
  for await (const image of client.all.listImages({ projectId, prefix: reference, limit: 100 })) {
    if (image.path === reference) return image.id;
  }
  throw new LoupeError('not_found', {
    message: `No image with the id or path "${reference}" in project ${projectId}: loupe images list --project ${projectId} shows them.`,
  });
}

function describeImage(i: Image): string {
  return formatFields([
    ['id', i.id],
    ['path', i.path],
    ['size', formatBytes(i.fileSize)],
    ['dimensions', `${i.width}×${i.height}`],
    ['format', i.format],
    ['alt text', i.altText],
    ['tags', i.tags.join(', ')],
    ['url', i.url],
    ['updated', i.updatedAt],
  ]);
}

/** `loupe images`: upload files and folders into an image project, list, show, tag and delete its images, purge their variants. */
export function registerImagesCommand(program: Command): void {
  const images = program.command('images').description('Images: upload files and folders, list, show, tag, delete, purge cached variants.');

  withClientFlags(
    images
      .command('upload')
      .description('Upload image files, and the image files of folders at every depth; an existing path is replaced.'),
  )
    .argument('<paths...>', 'files and folders')
    .requiredOption('--project <project>', 'the image project: id or slug')
    .option('--prefix <path>', 'put the images under this path in the project, e.g. blog/2026')
    .option('--concurrency <n>', 'uploads at once (default 4)', wholeNumber(1, 32), 4)
    .addHelpText(
      'after',
      "\nA file's path in the project is the prefix, then its path below the folder given (or its name).\nPrints one line per file and a summary; exits 0 when every file was uploaded, else with the first failure's code.",
    )
    .action(
      userAction<{ project: string; prefix?: string; concurrency: number }>(async ({ session, output }, [paths], options) => {
        const files = await collectImageFiles(paths as string[], options.prefix);
        const projectId = await imageProjectId(session.client(), options.project);
        const { results, stopped, firstError } = await uploadAll(session.client(), projectId, files, options.concurrency, output);
        const uploaded = results.filter((result) => 'image' in result);
        const summary: UploadSummary = {
          uploaded: uploaded.length,
          failed: results.length - uploaded.length,
          skipped: files.length - results.length,
          bytes: uploaded.reduce((sum, result) => sum + result.image.fileSize, 0),
          files: results,
        };
        output.result(summary, (s) =>
          [
            `Uploaded ${s.uploaded} of ${files.length} files (${formatBytes(s.bytes)}) to project ${options.project}`,
            s.failed > 0 ? `; ${s.failed} failed` : '',
            s.skipped > 0 ? `; ${s.skipped} not tried after: ${errorBody(stopped).error}` : '',
            '.',
          ].join(''),
        );
        return firstError === undefined ? exitCodes.ok : exitCodeFor(firstError);
      }),
    );

  withListFlags(withClientFlags(images.command('list').description("List a project's images.")))
    .requiredOption('--project <project>', 'the image project: id or slug')
    .option('--prefix <path>', 'only images whose path starts with this')
    .option('--tag <tag>', 'only images with this tag')
    .action(
      userAction<ListFlags & { project: string; prefix?: string; tag?: string }>(async ({ session, output }, _args, options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const list = await listAll(options, (page) =>
          client.all.listImages({ projectId, prefix: options.prefix, tag: options.tag, ...page }),
        );
        output.result(list, (rows) =>
          rows.length === 0
            ? 'No images.'
            : formatTable(
                ['id', 'path', 'size', 'dimensions', 'format'],
                rows.map((i) => [i.id, i.path, formatBytes(i.fileSize), `${i.width}×${i.height}`, i.format]),
              ),
        );
      }),
    );

  const projectOption = ['--project <project>', 'the image project: id or slug'] as const;

  withClientFlags(images.command('get').description('Show an image: path, size, dimensions, alt text, tags, CDN URL.'))
    .argument('<image>', 'image id, or its path in the project')
    .requiredOption(...projectOption)
    .action(
      userAction<{ project: string }>(async ({ session, output }, [reference], options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const image = await client.getImage({ projectId, imageId: await imageId(client, projectId, reference as string) });
        output.result(image, describeImage);
      }),
    );

  withClientFlags(images.command('tag').description("Add or remove an image's tags, or set its alt text."))
    .argument('<image>', 'image id, or its path in the project')
    .requiredOption(...projectOption)
    .option('--add <tag>', 'add this tag (repeatable)', repeatable)
    .option('--remove <tag>', 'remove this tag (repeatable)', repeatable)
    .option('--alt <text>', 'set the alt text; "" clears it')
    .action(
      userAction<{ project: string; add?: string[]; remove?: string[]; alt?: string }>(
        async ({ session, output }, [reference], options) => {
          const client = session.client();
          const projectId = await imageProjectId(client, options.project);
          const id = await imageId(client, projectId, reference as string);
          const changesTags = options.add !== undefined || options.remove !== undefined;
          // The API replaces the tags whole: add and remove are applied to the current ones.
          const tags = changesTags
            ? [...new Set([...(await client.getImage({ projectId, imageId: id })).tags, ...(options.add ?? [])])].filter(
                (tag) => !options.remove?.includes(tag),
              )
            : undefined;
          const image = await client.updateImage({
            projectId,
            imageId: id,
            body: {
              ...(tags !== undefined ? { tags } : {}),
              ...(options.alt !== undefined ? { altText: options.alt === '' ? null : options.alt } : {}),
            },
          });
          output.result(image, (i) => `Updated ${i.path}: tags ${i.tags.join(', ') || '-'}; alt text ${i.altText ?? '-'}`);
        },
      ),
    );

  withClientFlags(images.command('delete').description('Delete an image and its cached variants; its CDN URLs answer 404 from then on.'))
    .argument('<image>', 'image id, or its path in the project')
    .requiredOption(...projectOption)
    .action(
      userAction<{ project: string }>(async ({ session, output }, [reference], options) => {
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const answer = await client.deleteImage({ projectId, imageId: await imageId(client, projectId, reference as string) });
        output.result(answer, () => `Deleted image ${String(reference)}.`);
      }),
    );

  withClientFlags(
    images
      .command('purge')
      .description(
        'Purge cached variants, of one image or (--all) of the project, so the CDN reads the originals again. Browsers and shared caches that hold a variant (served immutable) keep it until they evict it.',
      ),
  )
    .argument('[image]', 'image id, or its path in the project')
    .option('--all', 'purge the variants of every image of the project')
    .requiredOption(...projectOption)
    .action(
      userAction<{ project: string; all?: boolean }>(async ({ session, output }, [reference], options) => {
        if ((reference === undefined) === (options.all !== true)) {
          throw usageError('image', 'Name one image, or pass --all for every image of the project.');
        }
        const client = session.client();
        const projectId = await imageProjectId(client, options.project);
        const answer =
          reference === undefined
            ? await client.purgeProjectVariants({ projectId })
            : await client.purgeImageVariants({ projectId, imageId: await imageId(client, projectId, reference as string) });
        output.result(
          answer,
          (a) =>
            `Purged ${a.purged} cached variant${a.purged === 1 ? '' : 's'} (${formatBytes(a.bytesFreed)}) of ${reference ?? 'every image'}.`,
        );
      }),
    );
}
