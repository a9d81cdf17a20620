import type { Image } from '@loupe/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createApiClient } from '../api/api-client.ts';
import { useSession, useSignedIn } from '../session/session-context.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { xhrFetch } from './xhr-fetch.ts';

export interface Upload {
  key: number;
  file: File;
  /** Where the image will live: the folder chosen, then the file's name. */
  path: string;
  status: 'queued' | 'sending' | 'processing' | 'done' | 'failed' | 'cancelled';
  sent: number;
  total: number;
  image?: Image;
  error?: unknown;
}

/** Files sent at once: more would only share the same line and the server's two cores. */
const PARALLEL = 2;

/**
 * A queue of image uploads to a project through the SDK's uploadImage (multipart, the
 * contract's `file` and `path`), each with its progress, two at a time. `onUploaded` hears
 * each image stored.
 */
export function useUploads(projectId: string, onUploaded: (image: Image) => void) {
  const { workspace } = useWorkspace();
  const { csrfToken } = useSignedIn();
  const { refresh } = useSession();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextKey = useRef(1);
  const notify = useRef(onUploaded);
  notify.current = onUploaded;

  const change = useCallback((key: number, patch: Partial<Upload>) => {
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));
  }, []);

  const send = useCallback(
    async (upload: Upload) => {
      const controller = new AbortController();
      controllers.current.set(upload.key, controller);
      change(upload.key, { status: 'sending' });
      const client = createApiClient({
        csrfToken,
        workspaceId: workspace.id,
        onSessionEnded: () => void refresh(),
        fetch: xhrFetch((sent, total) => change(upload.key, { sent, total, status: sent >= total ? 'processing' : 'sending' })),
      });
      try {
        const image = await client.uploadImage(
          { projectId, upload: { file: upload.file, filename: upload.file.name, fields: { path: upload.path } } },
          { signal: controller.signal },
        );
        change(upload.key, { status: 'done', image, sent: upload.file.size, total: upload.file.size });
        notify.current(image);
      } catch (error) {
        change(upload.key, controller.signal.aborted ? { status: 'cancelled' } : { status: 'failed', error });
      } finally {
        controllers.current.delete(upload.key);
      }
    },
    [projectId, csrfToken, workspace.id, refresh, change],
  );

  // Starts queued files while fewer than PARALLEL are on their way.
  useEffect(() => {
    const active = controllers.current.size;
    const waiting = uploads.filter((upload) => upload.status === 'queued' && !controllers.current.has(upload.key));
    // send() registers its controller before its first await, so a file never starts twice.
    for (const upload of waiting.slice(0, Math.max(0, PARALLEL - active))) void send(upload);
  }, [uploads, send]);

  // Leaving the screen stops what is still being sent.
  useEffect(() => () => controllers.current.forEach((controller) => controller.abort()), []);

  const add = useCallback((files: Iterable<File>, folder: string) => {
    const prefix = folder.trim().replace(/^\/+|\/+$/g, '');
    const added = [...files].map<Upload>((file) => ({
      key: nextKey.current++,
      file,
      path: prefix ? `${prefix}/${file.name}` : file.name,
      status: 'queued',
      sent: 0,
      total: file.size,
    }));
    setUploads((all) => [...all, ...added]);
  }, []);

  const cancel = useCallback(
    (key: number) => {
      const controller = controllers.current.get(key);
      if (controller) controller.abort();
      else change(key, { status: 'cancelled' });
    },
    [change],
  );

  const clearFinished = useCallback(() => {
    setUploads((all) =>
      all.filter((upload) => upload.status === 'queued' || upload.status === 'sending' || upload.status === 'processing'),
    );
  }, []);

  return { uploads, add, cancel, clearFinished };
}
