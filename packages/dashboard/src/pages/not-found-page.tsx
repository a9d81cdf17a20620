import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';

export function NotFoundPage() {
  return (
    <EmptyState title="Page not found" action={<Link to="/">Go to the dashboard</Link>}>
      There is no page at this address.
    </EmptyState>
  );
}
