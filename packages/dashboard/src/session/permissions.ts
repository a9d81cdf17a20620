import { type Role, roleScopes, type Scope } from '@loupe/contract';

/**
 * Whether a role may do what an operation with this scope does: the server's own table
 * (DESIGN.md §5), so a button is shown exactly when its request would be allowed.
 */
export function roleCan(role: Role, scope: Scope): boolean {
  return roleScopes[role].includes(scope);
}
