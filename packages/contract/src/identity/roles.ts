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
