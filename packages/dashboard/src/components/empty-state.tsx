import type { ReactNode } from 'react';

/** What a list shows when there is nothing in it yet, and (for those allowed) how to add the first. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <h2>{title}</h2>
      {children && <p className="muted">{children}</p>}
      {action && <div className="empty-action">{action}</div>}
    </section>
  );
}
