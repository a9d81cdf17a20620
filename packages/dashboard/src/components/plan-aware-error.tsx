import { isLoupeError } from '@loupe/sdk';
import { Link } from 'react-router';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { ErrorMessage } from './error-message.tsx';
import './plan-aware-error.css';

/**
 * ErrorMessage, except for a 402 `plan_feature_unavailable` (DESIGN.md §6), which says in
 * words what the plan lacks and what to do: an owner can change the plan, anyone else asks one.
 * `feature` names the feature the screen is about ("Scheduled crawls").
 */
export function PlanAwareError({ error, feature, onRetry }: { error: unknown; feature: string; onRetry?: () => void }) {
  const { workspace } = useWorkspace();
  if (!isLoupeError(error, 'plan_feature_unavailable')) return <ErrorMessage error={error} onRetry={onRetry} />;
  const plan = typeof error.extra.plan === 'string' ? error.extra.plan : workspace.plan;
  return (
    <div className="plan-notice" role="alert">
      <p>
        <strong>
          {feature} are not part of the {plan} plan.
        </strong>{' '}
        {error.message}
      </p>
      <p>
        {workspace.role === 'owner' ? (
          <>
            To use them, <Link to={`/w/${workspace.id}/settings/billing`}>move the workspace to a plan that includes them</Link> (Settings →
            Billing).
          </>
        ) : (
          <>To use them, ask an owner of {workspace.name} to move it to a plan that includes them.</>
        )}
      </p>
    </div>
  );
}
