import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSignedIn } from '../session/session-context.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** Every workspace the user is in; choosing one opens the same section there. */
export function WorkspaceSwitcher() {
  const { workspaces } = useSignedIn();
  const { workspace } = useWorkspace();
  const navigate = useNavigate();
  const location = useLocation();
  const id = useId();
  // `/w/<id>/images/…` → `images`: a deeper screen names a thing of the old workspace.
  const section = location.pathname.split('/')[3] ?? '';
  return (
    <div className="workspace-switcher">
      <label htmlFor={id}>Workspace</label>
      <select id={id} value={workspace.id} onChange={(event) => navigate(`/w/${event.target.value}/${section}`)}>
        {workspaces.map((each) => (
          <option key={each.id} value={each.id}>
            {each.name} ({each.role})
          </option>
        ))}
      </select>
    </div>
  );
}
