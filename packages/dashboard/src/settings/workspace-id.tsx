import { CopyButton } from '../components/copy-button.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/**
 * The workspace's id with a copy button: what a key's caller names the workspace by (the
 * x-service-team header, LOUPE_WORKSPACE), needed the moment a key is made.
 */
export function WorkspaceId() {
  const { workspace } = useWorkspace();
  return (
    <div className="workspace-id">
      <div className="copy-row">
        <span className="workspace-id-label">Workspace id</span>
        <code data-testid="workspace-id">{workspace.id}</code>
        <CopyButton text={workspace.id} label="Copy workspace id" />
      </div>
      <p className="muted">
        API calls name the workspace with the <code>x-service-team</code> header; the CLI and MCP clients read it from{' '}
        <code>LOUPE_WORKSPACE</code> or <code>--workspace</code>.
      </p>
    </div>
  );
}
