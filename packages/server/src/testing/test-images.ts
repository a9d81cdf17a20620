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

/** Uploads `data` to `path` of a project through the API, as the key's user; the answer must be 201. */
export async function uploadImage(server: { url: string }, key: string, projectId: string, path: string, data: Uint8Array): Promise<void> {
  const response = await fetch(`${server.url}/api/images/projects/${projectId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: uploadForm({ name: path.split('/').pop() as string, data }, { path }),
  });
  if (response.status !== 201) throw new Error(`uploading ${path}: ${response.status} ${await response.text()}`);
}
