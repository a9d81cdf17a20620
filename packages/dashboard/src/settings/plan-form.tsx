import { useState } from 'react';
import { onlyFieldErrors } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/**
 * The owner's plan change. The plan table is the server's configuration and no operation
 * lists it, so the name is typed; an unknown one comes back as the API's message beside the
 * field, naming the plans there are.
 */
export function PlanForm({ plan, onChanged }: { plan: string; onChanged: () => void }) {
  const { api } = useWorkspace();
  const { refresh } = useSession();
  const [changed, setChanged] = useState<string | null>(null);
  const form = useSubmit(async (fields) => {
    setChanged(null);
    const next = (fields.plan ?? '').trim();
    await api.updateTeam({ body: { plan: next } });
    setChanged(next);
    onChanged();
    // The workspace switcher and plan notices read the plan from the session.
    await refresh();
  });
  return (
    <form className="plan-form" onSubmit={form.onSubmit} noValidate>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['plan'])} />}
      <FormField
        label="Plan name"
        name="plan"
        defaultValue={plan}
        required
        autoComplete="off"
        spellCheck={false}
        hint="free, pro or business unless this server's plan table says otherwise. Credits do not move: the new allowance comes with the next monthly top-up."
        error={form.error}
      />
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
