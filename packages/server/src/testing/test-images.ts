import { readFile } from 'node:fs/promises';

/** The real photographs and edge cases of ../shared/testdata/images (see its SOURCES.md). */
export const testImagesDir = new URL('../../../../../shared/testdata/images/', import.meta.url);

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
