import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { usageError } from './user-command.ts';

/** Extensions walked in folders; a file named on the command line is sent whatever it is called. */
const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.gif', '.webp', '.avif', '.tif', '.tiff', '.svg', '.heic', '.heif', '.jxl']);

export interface ImageFile {
  /** On disk. */
  file: string;
  /** Where it goes in the project: the prefix, then the path below the folder given (or the name). */
  path: string;
}

function joinPath(prefix: string | undefined, path: string): string {
  const clean = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return clean ? `${clean}/${path}` : path;
}

/**
 * The files to upload for the given files and folders: a file as itself, a folder's image
 * files (by extension, hidden ones left out) at every depth, sorted so runs are repeatable.
 * A path that does not exist is a usage error before anything is sent.
 */
export async function collectImageFiles(paths: readonly string[], prefix?: string): Promise<ImageFile[]> {
  const found: ImageFile[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    if (!info) throw usageError('paths', `No such file or folder: ${given}`);
    if (info.isFile()) {
      found.push({ file: given, path: joinPath(prefix, basename(given)) });
      continue;
    }
    const entries = await readdir(given, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile() && IMAGE_EXTENSIONS.has(extname(entry.name).toLowerCase()))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter(
        (file) =>
          !relative(given, file)
            .split(sep)
            .some((part) => part.startsWith('.')),
      )
      .sort();
    for (const file of files) found.push({ file, path: joinPath(prefix, relative(given, file).split(sep).join('/')) });
  }
  if (found.length === 0) throw usageError('paths', `No image files in ${paths.join(', ')}.`);
  return found;
}
