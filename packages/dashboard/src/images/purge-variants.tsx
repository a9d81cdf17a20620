import type { VariantsPurged } from '@loupe/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { formatBytes } from './format-bytes.ts';

export interface PurgeVariantsProps {
  /** What is purged, for the heading and the dialog: "this image", "every image of Blog". */
  subject: string;
  purge: () => Promise<VariantsPurged>;
}

/** "Purge cached variants", confirmed, for originals changed outside Loupe (the CDN reads them again). */
export function PurgeVariants({ subject, purge }: PurgeVariantsProps) {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<VariantsPurged | null>(null);
  return (
    <section className="card stack" aria-label="Purge cached variants">
      <h3>Cached variants</h3>
      <p>
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Purge cached variants
        </button>{' '}
        {result && (
          <span role="status" className="muted">
            Purged {result.purged} cached {result.purged === 1 ? 'variant' : 'variants'} ({formatBytes(result.bytesFreed)}).
          </span>
        )}
      </p>
      <ConfirmDialog
        open={open}
        title={`Purge the cached variants of ${subject}?`}
        confirmLabel="Purge cached variants"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setResult(await purge());
        }}
      >
        <p>
          The next CDN request for each variant transforms the original again, so an original changed outside Loupe is served from then on,
          under a new ETag. Until then each request costs a transform.
        </p>
        <p>
          Browsers and shared caches that already hold a variant keep it: variants are served as immutable for a year. Where everyone must
          see the change at once, change the URL instead.
        </p>
      </ConfirmDialog>
    </section>
  );
}
