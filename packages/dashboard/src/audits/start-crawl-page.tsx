import { type AuditProject, RENDERED_PAGE_CREDITS, type StartProjectCrawl } from '@loupe/contract';
import { isLoupeError } from '@loupe/sdk';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { asLoupeError, onlyFieldErrors } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { crawlOptionsFromFields, YES_NO_OPTIONS } from './crawl-options.ts';
import { CrawlOptionsFields } from './crawl-options-fields.tsx';
import { type EstimateState, useCrawlEstimate } from './use-crawl-estimate.ts';
import '../reports/reports.css';
import './audits.css';

/** Every field of the form, for telling a refusal about them from one about the whole request. */
const FIELDS = [
  'url',
  'mode',
  'maxPages',
  'maxDepth',
  'concurrency',
  'delayMs',
  ...YES_NO_OPTIONS,
  'include',
  'exclude',
  'userAgent',
  'headers',
  'render',
];

/** The form's options, with the render checkbox: unticked is a plain crawl, whatever the project's default. */
function optionsOf(fields: Record<string, string>) {
  return { ...crawlOptionsFromFields(fields), render: fields.render === 'on' };
}

/**
 * `/w/:ws/audits/:projectId/crawls/new`: a crawl of the project's site, its options starting
 * from the project's defaults, with the credits it will reserve shown before it starts.
 */
export function StartCrawlPage() {
  const { projectId = '' } = useParams();
  const { api, workspace, can } = useWorkspace();
  const project = useQuery(() => api.getAuditProject({ projectId }), [api, projectId]);
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/w/${workspace.id}/audits/${projectId}`}>{project.status === 'done' ? project.data.name : 'Back to the project'}</Link>
      </p>
      <PageHeader title="Start a crawl" description="Crawl the site and audit every page; the report is ready when it ends." />
      {project.status === 'loading' && <LoadingState label="Loading the project" />}
      {project.status === 'failed' && <ErrorMessage error={project.error} onRetry={project.reload} />}
      {project.status === 'done' &&
        (can('crawls:write') ? (
          <StartCrawlForm project={project.data} />
        ) : (
          <EmptyState title="Your role cannot start crawls">Ask an admin of this workspace for the member role to start crawls.</EmptyState>
        ))}
    </>
  );
}

function fieldsOf(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

function StartCrawlForm({ project }: { project: AuditProject }) {
  const { api, workspace } = useWorkspace();
  const navigate = useNavigate();
  // What Start would send, kept current as the form changes, for the estimate.
  const [body, setBody] = useState<StartProjectCrawl>({ url: project.siteUrl, ...project.crawlDefaults });
  const estimate = useCrawlEstimate(project.id, body);
  const form = useSubmit(async (fields) => {
    const crawl = await api.startProjectCrawl({ projectId: project.id, body: { url: fields.url, ...optionsOf(fields) } });
    navigate(`/w/${workspace.id}/crawls/${crawl.id}`);
  });
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const fields = fieldsOf(event.currentTarget);
    try {
      setBody({ url: fields.url, ...optionsOf(fields) });
    } catch {
      // A half-typed header line: the estimate does not depend on it.
    }
  };
  const refused = isLoupeError(form.error, 'insufficient_credits') ? form.error : undefined;
  return (
    <form className="card start-crawl-form" onSubmit={form.onSubmit} onInput={onInput} noValidate>
      <FormField
        label="Start URL"
        name="url"
        type="url"
        required
        defaultValue={project.siteUrl}
        hint="The project's site; any page of it works as a start."
        error={form.error}
      />
      <CrawlOptionsFields initial={project.crawlDefaults} blankMeans="default" error={form.error} />
      <label className="check-row">
        <input type="checkbox" name="render" defaultChecked={project.crawlDefaults.render ?? false} />
        Render pages in a browser ({RENDERED_PAGE_CREDITS} credits per page)
        <span className="muted small"> — lab metrics (LCP, CLS, TBT), a screenshot and what JavaScript adds to each page.</span>
      </label>
      <CreditEstimate estimate={estimate} />
      {refused && (
        <div className="error-message" role="alert">
          <p>
            <strong>Not enough credits.</strong> This crawl needs {String(refused.extra.required)} credits; the workspace has{' '}
            {String(refused.extra.balance)}.
          </p>
          <p>Lower Max pages, or wait for the monthly grant.</p>
        </div>
      )}
      {form.error !== null && !refused && !onlyFieldErrors(form.error, FIELDS) && <ErrorMessage error={form.error} hideFieldErrors />}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          {form.busy ? 'Starting…' : 'Start crawl'}
        </button>
        <Link className="button" to={`/w/${workspace.id}/audits/${project.id}`}>
          Cancel
        </Link>
      </div>
    </form>
  );
}

/**
 * What starting will reserve (DESIGN.md §6: maxPages, by default and at most the plan's cap),
 * as the server works it out; unused credits come back when the crawl ends.
 */
function CreditEstimate({ estimate }: { estimate: EstimateState }) {
  if (estimate.status === 'loading') return <LoadingState label="Working out the credits" />;
  if (estimate.status === 'failed') {
    return (
      <div className="credit-estimate short" role="status">
        <p>
          <strong>No estimate:</strong> {asLoupeError(estimate.error).message}
        </p>
      </div>
    );
  }
  const { maxPages, credits, creditsPerPage, balance, capped, sufficient } = estimate.data;
  return (
    <div className={`credit-estimate${sufficient ? '' : ' short'}`} role="status" aria-live="polite">
      <p>
        <strong>
          Up to {credits.toLocaleString('en')} {credits === 1 ? 'credit' : 'credits'}, balance {balance.toLocaleString('en')}
        </strong>
      </p>
      <p className="muted">
        {creditsPerPage === 1 ? 'One credit' : `${creditsPerPage} credits`} per page crawled, up to {maxPages.toLocaleString('en')}{' '}
        {maxPages === 1 ? 'page' : 'pages'}; the unused ones come back when the crawl ends.
        {capped && " Max pages is lowered to the plan's cap."}
        {!sufficient &&
          ` Not enough credits: lower Max pages to ${Math.floor(balance / creditsPerPage).toLocaleString('en')} or less${creditsPerPage > 1 ? ', or do not render' : ''}.`}
      </p>
    </div>
  );
}
