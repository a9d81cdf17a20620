import type { CreditEntry } from '@loupe/contract';
import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { formatDateTime } from './format-date.ts';
import { LoadMoreButton } from '../components/load-more-button.tsx';

const PAGE = 50;
const signed = new Intl.NumberFormat(undefined, { signDisplay: 'exceptZero' });
const number = new Intl.NumberFormat();

/** The credit ledger, PAGE entries at a time through listCreditEntries' cursors. */
export function CreditLedger() {
  const { api, workspace } = useWorkspace();
  const ledger = usePagedList<CreditEntry>((signal) => api.all.listCreditEntries({ limit: PAGE + 1 }, { signal }), [api], PAGE);
  if (ledger.status === 'loading') return <LoadingState label="Loading the credit ledger" />;
  if (ledger.status === 'failed') return <ErrorMessage error={ledger.error} onRetry={ledger.reload} />;
  if (ledger.items.length === 0) return <EmptyState title="No credit movements yet">Grants and crawl charges will be listed here.</EmptyState>;
  return (
    <>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Credit ledger, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col" className="number">
                Change
              </th>
              <th scope="col" className="number">
                Balance after
              </th>
              <th scope="col">About</th>
            </tr>
          </thead>
          <tbody>
            {ledger.items.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.createdAt)}</td>
                <td>
                  <span className={`badge ledger-${entry.kind}`}>{entry.kind}</span>
                </td>
                <td className="number">{signed.format(entry.amount)}</td>
                <td className="number">{number.format(entry.balanceAfter)}</td>
                <td>
                  {entry.note}
                  {entry.note && entry.crawlId && ' · '}
                  {entry.crawlId && <Link to={`/w/${workspace.id}/crawls/${entry.crawlId}`}>the crawl</Link>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {ledger.error !== null && <ErrorMessage error={ledger.error} onRetry={ledger.loadMore} />}
      <LoadMoreButton list={ledger} />
    </>
  );
}
