import { isLoupeError } from '@loupe/sdk';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { DiffSections } from './diff-sections.tsx';
import { ReportPairPicker } from './report-pair-picker.tsx';
import '../reports/reports.css';
import './diff.css';

/**
 * `/w/:ws/diff?old=&new=`: what changed between two reports. Without both ids it asks for
 * them (a project, then two of its reports). Two different sites are compared only when
 * asked (`cross=1`, the API's allowCrossSite).
 */
export function DiffPage() {
  const [params] = useSearchParams();
  const oldId = params.get('old') ?? '';
  const newId = params.get('new') ?? '';
  const crossSite = params.get('cross') === '1';
  if (!oldId || !newId) {
    return (
      <>
        <PageHeader title="Compare reports" description="Pick a project and two of its reports: before and after." />
        <ReportPairPicker />
      </>
    );
  }
  return <Comparison oldId={oldId} newId={newId} crossSite={crossSite} />;
}

function Comparison({ oldId, newId, crossSite }: { oldId: string; newId: string; crossSite: boolean }) {
  const { api, workspace } = useWorkspace();
  const diff = useQuery(() => api.diffReports({ old: oldId, new: newId, allowCrossSite: crossSite }), [api, oldId, newId, crossSite]);
  const again = `/w/${workspace.id}/diff`;
  return (
    <>
      <p className="breadcrumb">
        <Link to={again}>Compare other reports</Link>
      </p>
      <PageHeader title="Comparison" description="What changed from the earlier report to the later one." />
      {diff.status === 'loading' && <LoadingState label="Comparing the reports" />}
      {diff.status === 'failed' && (
        <>
          <ErrorMessage error={diff.error} onRetry={diff.reload} />
          {isLoupeError(diff.error, 'reports_not_comparable') && (
            <p>
              <Link className="button" to={`${again}?${new URLSearchParams({ old: oldId, new: newId, cross: '1' })}`}>
                Compare them anyway, page by page by path
              </Link>
            </p>
          )}
        </>
      )}
      {diff.status === 'done' && <DiffSections diff={diff.data} />}
    </>
  );
}
