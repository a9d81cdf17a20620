import type { Image } from '@loupe/contract';
import { type DragEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { asLoupeError } from '../api/api-error.ts';
import { formatBytes } from './format-bytes.ts';
import { useImageProject } from './project-context.ts';
import { type Upload, useUploads } from './use-uploads.ts';

const STATUS: Record<Upload['status'], string> = {
  queued: 'Waiting',
  sending: 'Sending',
  processing: 'Processing',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * Where files are dropped (or chosen, for the keyboard) to upload into the project, under
 * an optional folder, each with its progress and its outcome.
 */
export function UploadDropZone({ projectId, onUploaded }: { projectId: string; onUploaded: (image: Image) => void }) {
  const { uploads, add, cancel, clearFinished } = useUploads(projectId, onUploaded);
  const [over, setOver] = useState(false);
  const [folder, setFolder] = useState('');
  const folderId = useId();
  const inputId = useId();

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (event.dataTransfer.files.length > 0) add(event.dataTransfer.files, folder);
  };
  const finished = uploads.some((upload) => upload.status === 'done' || upload.status === 'failed' || upload.status === 'cancelled');

  return (
    <section className="upload" aria-label="Upload images">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the file input is the keyboard path */}
      <div
        className={over ? 'drop-zone over' : 'drop-zone'}
        data-testid="drop-zone"
        onDragEnter={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
        }}
        onDrop={onDrop}
      >
        <p>
          <strong>Drop images here</strong>, or
        </p>
        {/* The input is hidden from the eye only: it keeps the focus, and its label is the button seen. */}
        <input
          id={inputId}
          className="file-input visually-hidden"
          type="file"
          accept="image/*"
          multiple
          onChange={(event) => {
            if (event.target.files) add(event.target.files, folder);
            event.target.value = '';
          }}
        />
        <label htmlFor={inputId} className="button">
          Choose files
        </label>
        <div className="inline-field">
          <label htmlFor={folderId}>Folder</label>
          <input id={folderId} value={folder} placeholder="e.g. blog/2026" onChange={(event) => setFolder(event.target.value)} />
        </div>
        <p className="muted field-hint">Each file is stored at its folder and name; a path already used is replaced.</p>
      </div>
      {uploads.length > 0 && (
        <>
          <ul className="upload-list" aria-label="Uploads">
            {uploads.map((upload) => (
              <UploadRow key={upload.key} upload={upload} onCancel={() => cancel(upload.key)} />
            ))}
          </ul>
          {finished && (
            <button type="button" className="button" onClick={clearFinished}>
              Clear finished
            </button>
          )}
        </>
      )}
    </section>
  );
}

function UploadRow({ upload, onCancel }: { upload: Upload; onCancel: () => void }) {
  const { base } = useImageProject();
  const percent = upload.total > 0 ? Math.round((upload.sent / upload.total) * 100) : 0;
  const running = upload.status === 'queued' || upload.status === 'sending' || upload.status === 'processing';
  const failure = upload.error === undefined ? undefined : asLoupeError(upload.error);
  const detail = failure && Object.values(failure.details?.fieldErrors ?? {}).flat()[0];
  return (
    <li className={`upload-row ${upload.status}`}>
      <div className="upload-name">
        <span className="upload-path">{upload.path}</span>
        <span className="muted"> · {formatBytes(upload.file.size)}</span>
      </div>
      <progress max={100} value={upload.status === 'done' ? 100 : percent} aria-label={`${upload.path} upload progress`} />
      <span className="upload-status" role="status">
        {STATUS[upload.status]}
        {upload.status === 'sending' && ` ${percent}%`}
        {upload.status === 'done' && upload.image && (
          <>
            {' '}
            ·{' '}
            <Link to={`${base}/images/${upload.image.id}`}>
              {upload.image.width} × {upload.image.height}
            </Link>
          </>
        )}
        {failure && `: ${failure.message}${detail ? ` ${detail}` : ''}`}
      </span>
      {running && (
        <button type="button" className="button small" onClick={onCancel} aria-label={`Cancel ${upload.path}`}>
          Cancel
        </button>
      )}
    </li>
  );
}
