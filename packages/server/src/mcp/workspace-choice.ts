import { LoupeError, type OperationDefinition, type TeamListing } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import type { ToolErrorBody } from './tool-result.ts';

/** True for the tools that act in one workspace the caller names (the image API acts in the key's own). */
export function needsWorkspace(operation: OperationDefinition): boolean {
  return operation.api === 'workspace' && operation.teamHeader !== false && operation.public !== true;
}

/** The workspaces a key's user can act in: a user is in a handful, so one page of 100 holds them. */
async function workspacesOf(client: LoupeClient, signal: AbortSignal): Promise<TeamListing[]> {
  const page = await client.page.listTeams({ limit: 100 }, { signal });
  return page.items;
}

function choices(workspaces: readonly TeamListing[]): { id: string; name: string; role: string }[] {
  return workspaces.map(({ id, name, role }) => ({ id, name, role }));
}

export type WorkspaceChoice = { workspaceId: string } | { refusal: ToolErrorBody };

/**
 * The workspace a tool call acts in: the `workspaceId` argument, else the one the connection
 * names (`LOUPE_WORKSPACE`, the `x-service-team` header of /mcp), else the caller's only one.
 * With several and none named, the refusal lists them, since an agent cannot send a header.
 */
export async function chooseWorkspace(
  argument: string | undefined,
  named: string | undefined,
  client: LoupeClient,
  signal: AbortSignal,
): Promise<WorkspaceChoice> {
  if (argument === undefined && named) return { workspaceId: named };
  const workspaces = await workspacesOf(client, signal);
  if (argument !== undefined) {
    const id = argument.toLowerCase();
    if (workspaces.some((workspace) => workspace.id.toLowerCase() === id)) return { workspaceId: argument };
    throw new LoupeError('not_found', {
      message: `No workspace ${argument} among yours; pass workspaceId as one of: ${describe(workspaces)}.`,
      extra: { workspaces: choices(workspaces) },
    });
  }
  const [only] = workspaces;
  if (workspaces.length === 1 && only) return { workspaceId: only.id };
  return {
    refusal: {
      error: `This key's user is in ${workspaces.length} workspaces: pass workspaceId as one of ${describe(workspaces)} (list_workspaces lists them), or set LOUPE_WORKSPACE for loupe mcp.`,
      code: 'workspace_required',
      workspaces: choices(workspaces),
    },
  };
}

function describe(workspaces: readonly TeamListing[]): string {
  return workspaces.map((workspace) => `${workspace.id} (${workspace.name})`).join(', ') || 'none';
}
