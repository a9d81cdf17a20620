import { z } from 'zod';

/** Key scopes (DESIGN.md §5). A key's effective scopes are its own, intersected with its user's role. */
export const scopes = [
  'images:read',
  'images:write',
  'crawls:write',
  'reports:read',
  'reports:write',
  'projects:write',
  'rules:write',
  'search:read',
  'team:admin',
] as const;
export const Scope = z.enum(scopes);
export type Scope = z.infer<typeof Scope>;

export const roles = ['owner', 'admin', 'member', 'viewer'] as const;
export const Role = z.enum(roles);
export type Role = z.infer<typeof Role>;

const readScopes: Scope[] = ['images:read', 'reports:read', 'search:read'];
const writeScopes: Scope[] = ['images:write', 'crawls:write', 'reports:write', 'projects:write', 'rules:write'];

/** Viewers read; members create and change; admins and owners also manage the team. */
export const roleScopes: Record<Role, readonly Scope[]> = {
  viewer: readScopes,
  member: [...readScopes, ...writeScopes],
  admin: [...readScopes, ...writeScopes, 'team:admin'],
  owner: [...readScopes, ...writeScopes, 'team:admin'],
};

/**
 * What keeps someone acting with `grantor`'s role and scopes from giving `granted` to another
 * (an invite, a role change): a role ranked above their own (owners rank above admins, whose
 * scopes are the same), or rights of it that they do not hold themselves. Neither: they may.
 */
export function grantBlockers(
  grantor: { role: Role; scopes: readonly Scope[] },
  granted: Role,
): { aboveRole: boolean; missingScopes: Scope[] } {
  // `roles` is ordered from the most to the least rights.
  const aboveRole = roles.indexOf(granted) < roles.indexOf(grantor.role);
  const missingScopes = roleScopes[granted].filter((scope) => !grantor.scopes.includes(scope));
  return { aboveRole, missingScopes };
}
