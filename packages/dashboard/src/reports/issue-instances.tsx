import type { IssueInstance } from '@loupe/contract';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { Pager } from './pager.tsx';
import { useCursorPages } from './use-cursor-pages.ts';
import './issue-instances.css';

/** Instances shown at a time. */
export const INSTANCES_PAGE_SIZE = 25;

export interface IssueInstancesProps {
  reportId: string;
  ruleId: string;
  /** Only the instances on this page (a page's finding), named without their URL. */
  pageId?: string;
  /** The instances the button offers: the issue's across the report, or those a page's finding kept. */
  instances: number;
  /** The page detail's address, to name each instance's URL; not needed for one page's. */
  pageHref?: (pageId: string) => string;
}

/**
 * Every instance of an issue, page by page, beside the few examples of its summary: which
 * image, link or value on which URL. Asked for on demand, so a report's issues cost no request
 * until one is opened.
 */
export function IssueInstances(props: IssueInstancesProps) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Show every instance ({props.instances.toLocaleString('en')})
      </button>
    );
  }
  return <InstanceList {...props} />;
}

function InstanceList({ reportId, ruleId, pageId, pageHref }: IssueInstancesProps) {
  const { api } = useWorkspace();
  const headingId = useId();
  const list = useCursorPages(
    (cursor, signal) => api.page.listIssueInstances({ reportId, ruleId, pageId, limit: INSTANCES_PAGE_SIZE, cursor }, { signal }),
    [api, reportId, ruleId, pageId],
  );
  const { state } = list;
  return (
    <section className="issue-instances" aria-labelledby={headingId}>
      <p id={headingId} className="muted">
        Every instance
      </p>
      {state.status === 'loading' && <LoadingState label="Loading the instances" />}
      {state.status === 'failed' && <ErrorMessage error={state.error} onRetry={list.reload} />}
      {state.status === 'done' && (
        <ol className="instance-list" start={list.index * INSTANCES_PAGE_SIZE + 1}>
          {state.items.map((item) => (
            <InstanceItem
              key={`${item.pageId ?? item.url} ${item.position}`}
              item={item}
              pageHref={pageId === undefined ? pageHref : undefined}
            />
          ))}
        </ol>
      )}
      <Pager
        label="Instances"
        index={list.index}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </section>
  );
}

/** One instance; with `pageHref`, the URL it is on too (and, on a URL's first, the finding's value there). */
function InstanceItem({ item, pageHref }: { item: IssueInstance; pageHref?: (pageId: string) => string }) {
  const first = item.position === 1;
  const unlisted = item.count - item.kept;
  return (
    <li className="instance">
      {item.instance === null ? <span className="muted">(counted, not listed)</span> : <code>{item.instance}</code>}
      {pageHref && (
        <span className="instance-where muted">
          {' on '}
          {item.pageId ? <Link to={pageHref(item.pageId)}>{item.url}</Link> : <span>{item.url}</span>}
          {first && item.detail && <> — {item.detail}</>}
        </span>
      )}
      {first && unlisted > 0 && <span className="instance-where muted"> — {unlisted.toLocaleString('en')} more counted than listed</span>}
    </li>
  );
}
