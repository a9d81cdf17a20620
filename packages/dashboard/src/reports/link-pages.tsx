import type { PageLink } from '@loupe/contract';
import type { ReactNode } from 'react';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { type LinkEnds, LinkTable } from './link-table.tsx';
import { listTally } from './list-tally.ts';
import { Pager } from './pager.tsx';
import type { CursorPages } from './use-cursor-pages.ts';

export interface LinkPagesProps {
  reportId: string;
  /** The list, read `pageSize` links at a time. */
  list: CursorPages<PageLink>;
  pageSize: number;
  ends: LinkEnds;
  /** The table's name for screen readers, and the pager's. */
  name: string;
  loadingLabel: string;
  /** What shows for a list with no link in it (an EmptyState). */
  empty: ReactNode;
}

/** One page of a list of links (useCursorPages): its load, its tally as far as it is known, its table, Previous and Next. */
export function LinkPages({ reportId, list, pageSize, ends, name, loadingLabel, empty }: LinkPagesProps) {
  const { workspace } = useWorkspace();
  const pageHref = (pageId: string) => `/w/${workspace.id}/reports/${reportId}/pages/${pageId}`;
  const { state } = list;
  return (
    <div className="link-pages">
      {state.status === 'loading' && <LoadingState label={loadingLabel} />}
      {state.status === 'failed' && <ErrorMessage error={state.error} onRetry={list.reload} />}
      {state.status === 'done' && state.items.length === 0 && list.index === 0 && empty}
      {state.status === 'done' && state.items.length > 0 && (
        <>
          <p className="muted link-tally" aria-live="polite">
            {listTally({ index: list.index, pageSize, shown: state.items.length, hasNext: list.hasNext }, 'link', 'links')}
          </p>
          <LinkTable links={state.items} ends={ends} caption={name} pageHref={pageHref} />
        </>
      )}
      <Pager
        label={`Pages of ${name.charAt(0).toLowerCase()}${name.slice(1)}`}
        index={list.index}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </div>
  );
}
