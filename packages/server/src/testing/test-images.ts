import { readFile } from 'node:fs/promises';

/**
 * Real photographs and edge cases (see SOURCES.md there), copied into the repository from
 * the team's shared test data so that a clean clone anywhere runs the tests.
 */
export const testImagesDir = new URL('../../testdata/images/', import.meta.url);

export function readTestImage(name: string): Promise<Buffer> {
  return readFile(new URL(name, testImagesDir));
}

/** A multipart body with the file in `file` and any other fields. */
export function uploadForm(file: { name: string; data: Uint8Array; type?: string }, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
  return form;
}
