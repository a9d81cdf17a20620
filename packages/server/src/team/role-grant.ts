import { grantBlockers, LoupeError, type Role, type Scope } from '@loupe/contract';

/**
 * Refuses (403 forbidden) to let `grantor` give `granted` in an invite or a role change: a
 * role may be given only by someone whose role ranks at least as high and who acts with all
 * of its rights. Otherwise a narrow key could invite an owner, accept, sign in as that owner
 * and mint a key with every scope (issue #22, point 2).
 */
export function assertCanGrant(grantor: { role: Role; scopes: readonly Scope[] }, granted: Role): void {
  const { aboveRole, missingScopes } = grantBlockers(grantor, granted);
  if (aboveRole) {
    throw new LoupeError('forbidden', {
      message: `The ${granted} role ranks above yours (${grantor.role}): only a role at least as high may give it.`,
    });
  }
  if (missingScopes.length > 0) {
    throw new LoupeError('forbidden', {
      message: `Giving the ${granted} role needs every right it carries; this key lacks ${missingScopes.join(', ')}.`,
      extra: { missingScopes },
    });
  }
}
