import { useState } from 'react';
import { onlyFieldErrors } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { SelectField } from '../components/select-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** How a plan reads in the list: its name and what sets it apart. */
function describePlan(plan: { name: string; limits: { pagesPerCrawl: number; monthlyCredits: number | null } }): string {
  const credits = plan.limits.monthlyCredits === null ? 'unmetered' : `${plan.limits.monthlyCredits.toLocaleString()} credits a month`;
  return `${plan.name} (${plan.limits.pagesPerCrawl.toLocaleString()} pages a crawl, ${credits})`;
}

/** The owner's plan change, among the plans of this server's plan table (listPlans). */
export function PlanForm({ plan, onChanged }: { plan: string; onChanged: () => void }) {
  const { api } = useWorkspace();
  const { refresh } = useSession();
  const plans = useQuery(() => api.listPlans(), [api]);
  const [changed, setChanged] = useState<string | null>(null);
  const form = useSubmit(async (fields) => {
    setChanged(null);
    const next = fields.plan ?? '';
    await api.updateTeam({ body: { plan: next } });
    setChanged(next);
    onChanged();
    // The workspace switcher and plan notices read the plan from the session.
    await refresh();
  });
  if (plans.status === 'loading') return <LoadingState label="Loading the plans" />;
  if (plans.status === 'failed') return <ErrorMessage error={plans.error} onRetry={plans.reload} />;
  return (
    <form className="plan-form" onSubmit={form.onSubmit} noValidate>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['plan'])} />}
      <SelectField
        label="Plan"
        name="plan"
        defaultValue={plan}
        hint="Credits do not move: the new allowance comes with the next monthly top-up."
        error={form.error}
      >
        {plans.data.map((each) => (
          <option key={each.name} value={each.name}>
            {describePlan(each)}
          </option>
        ))}
      </SelectField>
      <div className="form-actions">
        <button type="submit" className="button" disabled={form.busy}>
          {form.busy ? 'Changing…' : 'Change plan'}
        </button>
        <span role="status" className="muted">
          {changed !== null ? `Now on the ${changed} plan.` : ''}
        </span>
      </div>
    </form>
  );
}
