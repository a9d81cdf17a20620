import type { Scope, TeamListing } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { createApiClient } from '../api/api-client.ts';
import { roleCan } from '../session/permissions.ts';
import { useSession, useSignedIn } from '../session/session-context.tsx';
import { rememberWorkspace } from './last-workspace.ts';

export interface WorkspaceContextValue {
  workspace: TeamListing;
  /** The SDK, acting in this workspace with the session. */
  api: LoupeClient;
  /** Whether the user's role here allows this scope: show a control only when it does. */
  can(scope: Scope): boolean;
}

const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);

/** The workspace a screen acts in (the `:workspaceId` of its URL), its API client and the user's rights there. */
export function WorkspaceProvider({ workspace, children }: { workspace: TeamListing; children: ReactNode }) {
  const session = useSignedIn();
  const { refresh } = useSession();
  useEffect(() => rememberWorkspace(workspace.id), [workspace.id]);
  // Kept across session refreshes (a rename, a role change): a new client would make every screen load again.
  const api = useMemo(
    () => createApiClient({ csrfToken: session.csrfToken, workspaceId: workspace.id, onSessionEnded: () => void refresh() }),
    [workspace.id, session.csrfToken, refresh],
  );
  const value = useMemo<WorkspaceContextValue>(
    () => ({ workspace, api, can: (scope) => roleCan(workspace.role, scope) }),
    [workspace, api],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceContextValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace is used outside WorkspaceProvider');
  return value;
}
