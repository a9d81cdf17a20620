import { ExportQuery } from '@loupe/contract';
import { useState } from 'react';
import { ErrorMessage } from '../components/error-message.tsx';

const formats = ExportQuery.shape.format.unwrap().options;
type Format = (typeof formats)[number];

const types: Record<Format, string> = { csv: 'text/csv', json: 'application/json' };

export interface ExportButtonsProps {
  /** The SDK's download in a format, e.g. `(format) => api.exportReport({ reportId, format })`. */
  exportAs: (format: Format) => Promise<unknown>;
  /** The saved file's name, without its extension. */
  filename: string;
  /** A button's text. */
  label?: (format: Format) => string;
}

/**
 * Downloads an export (the report's, its broken links') in each format the API offers: the
 * SDK's answer (text, or JSON already parsed) turned into a file the browser saves.
 */
export function ExportButtons({ exportAs, filename, label = (format) => `Export ${format.toUpperCase()}` }: ExportButtonsProps) {
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<unknown>(null);
  const download = async (format: Format) => {
    setBusy(format);
    setError(null);
    try {
      const answer = await exportAs(format);
      const text = typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2);
      const url = URL.createObjectURL(new Blob([text], { type: types[format] }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${filename}.${format}`;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its copy once the click is handled; the object URL can go after.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="export-buttons">
      {formats.map((format) => (
        <button key={format} type="button" className="button" disabled={busy !== null} onClick={() => void download(format)}>
          {busy === format ? 'Exporting…' : label(format)}
        </button>
      ))}
      {error !== null && <ErrorMessage error={error} />}
    </div>
  );
}
