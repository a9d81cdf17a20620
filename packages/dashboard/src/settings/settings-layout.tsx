import { NavLink, Outlet } from 'react-router';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import './settings.css';

/** `/w/:ws/settings`: the three settings screens (general, API keys, billing) under one header and tab bar. */
export function SettingsLayout() {
  const { workspace } = useWorkspace();
  const base = `/w/${workspace.id}/settings`;
  return (
    <>
      <PageHeader title="Settings" description={`How ${workspace.name} works: its settings, API keys, plan and credits.`} />
      <nav className="tabs" aria-label="Settings">
        <NavLink to={base} end>
          General
        </NavLink>
        <NavLink to={`${base}/keys`}>API keys</NavLink>
        <NavLink to={`${base}/billing`}>Billing</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
