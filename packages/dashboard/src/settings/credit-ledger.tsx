import type { CreditEntry } from '@loupe/contract';
import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { formatDateTime } from './format-date.ts';

const PAGE = 50;
const signed = new Intl.NumberFormat(undefined, { signDisplay: 'exceptZero' });
const number = new Intl.NumberFormat();

/** The credit ledger, PAGE entries at a time through listCreditEntries' cursors. */
export function CreditLedger() {
  const { api, workspace } = useWorkspace();
  const ledger = usePagedList<CreditEntry>((signal) => api.all.listCreditEntries({ limit: PAGE + 1 }, { signal }), [api], PAGE);
  return (
    <PagedTable
      list={ledger}
      loadingLabel="Loading the credit ledger"
      empty={<EmptyState title="No credit movements yet">Grants and crawl charges will be listed here.</EmptyState>}
      caption="Credit ledger, oldest first"
      columns={['When', 'Kind', { label: 'Change', className: 'number' }, { label: 'Balance after', className: 'number' }, 'About']}
      row={(entry) => (
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
      )}
    />
  );
}
