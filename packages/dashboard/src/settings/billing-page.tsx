import type { CreditSummary, Team } from '@loupe/contract';
import { type QueryState, useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CreditLedger } from './credit-ledger.tsx';
import { PlanForm } from './plan-form.tsx';

const number = new Intl.NumberFormat();
const count = (value: number | null) => (value === null ? 'Unlimited' : number.format(value));
const yesNo = (value: boolean) => (value ? 'Included' : 'Not included');

/** `/w/:ws/settings/billing`: plan (owners change it), credits, the plan's limits, this month's usage and the credit ledger. */
export function BillingPage() {
  const { api } = useWorkspace();
  const team = useQuery(() => api.getTeam(), [api]);
  const credits = useQuery(() => api.getCredits(), [api]);
  return (
    <>
      <section className="settings-section" aria-labelledby="plan-heading">
        <h2 id="plan-heading">Plan and credits</h2>
        {team.status === 'loading' && <LoadingState label="Loading the plan" />}
        {team.status === 'failed' && <ErrorMessage error={team.error} onRetry={team.reload} />}
        {team.status === 'done' && (
          <div className="billing-grid">
            <PlanCard team={team.data} onChanged={() => (team.reload(), credits.reload())} />
            <CreditsCard team={team.data} credits={credits} />
            <LimitsCard team={team.data} />
            <UsageCard team={team.data} />
          </div>
        )}
      </section>
      <section className="settings-section" aria-labelledby="ledger-heading">
        <h2 id="ledger-heading">Credit ledger</h2>
        <p className="muted">Every grant, reservation, release and charge of credits, oldest first.</p>
        <CreditLedger />
      </section>
    </>
  );
}

function PlanCard({ team, onChanged }: { team: Team; onChanged: () => void }) {
  const { workspace } = useWorkspace();
  return (
    <div className="card">
      <h3>Plan</h3>
      <p>
        <span className="badge">{team.plan}</span> ·{' '}
        {team.limits.monthlyCredits === null ? 'unmetered' : `${number.format(team.limits.monthlyCredits)} credits a month`}
      </p>
      {workspace.role === 'owner' ? (
        <PlanForm plan={team.plan} onChanged={onChanged} />
      ) : (
        <p className="muted">Only an owner can change the plan.</p>
      )}
    </div>
  );
}

function CreditsCard({ team, credits }: { team: Team; credits: QueryState<CreditSummary> & { reload: () => void } }) {
  return (
    <div className="card">
      <h3>Credits</h3>
      <p className="big-number">{number.format(credits.data?.balance ?? team.credits.balance)}</p>
      <p className="muted">available to start crawls; one credit per crawled page.</p>
      {credits.status === 'failed' && <ErrorMessage error={credits.error} onRetry={credits.reload} />}
      <dl className="facts">
        <dt>Held by running crawls</dt>
        <dd>{credits.status === 'done' ? number.format(credits.data.reserved) : '…'}</dd>
        <dt>Monthly allowance</dt>
        <dd>{count(team.credits.monthlyAllowance)}</dd>
      </dl>
    </div>
  );
}

function LimitsCard({ team }: { team: Team }) {
  const { limits } = team;
  return (
    <div className="card">
      <h3>Limits of the {team.plan} plan</h3>
      <dl className="facts">
        <dt>Pages per crawl</dt>
        <dd>{number.format(limits.pagesPerCrawl)}</dd>
        <dt>Image projects</dt>
        <dd>{count(limits.imageProjects)}</dd>
        <dt>Images per project</dt>
        <dd>{count(limits.imagesPerProject)}</dd>
        <dt>Scheduled crawls</dt>
        <dd>{yesNo(limits.scheduledCrawls)}</dd>
        <dt>Custom rule packs</dt>
        <dd>{yesNo(limits.customRulePacks)}</dd>
      </dl>
    </div>
  );
}

function UsageCard({ team }: { team: Team }) {
  const { usage, limits } = team;
  const month = new Date(`${usage.month}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (
    <div className="card">
      <h3>Usage in {month}</h3>
      <dl className="facts">
        <dt>Crawls started</dt>
        <dd>{number.format(usage.crawls)}</dd>
        <dt>Pages crawled</dt>
        <dd>{number.format(usage.pagesCrawled)}</dd>
        <dt>Credits charged</dt>
        <dd>{number.format(usage.creditsCharged)}</dd>
        <dt>Image projects</dt>
        <dd>
          {number.format(usage.imageProjects)}
          {limits.imageProjects !== null && ` of ${number.format(limits.imageProjects)}`}
        </dd>
        <dt>Members</dt>
        <dd>{number.format(usage.members)}</dd>
      </dl>
      <p className="muted">Calendar month in UTC.</p>
    </div>
  );
}
