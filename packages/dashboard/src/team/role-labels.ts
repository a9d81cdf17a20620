import type { Role } from '@loupe/contract';

/** Roles as people read them, with what each may do (DESIGN.md §5). */
export const roleLabels: Record<Role, { name: string; can: string }> = {
  owner: { name: 'Owner', can: 'everything, including the plan and other owners' },
  admin: { name: 'Admin', can: 'also members, invites, API keys and settings' },
  member: { name: 'Member', can: 'create and change images, crawls, projects and rules' },
  viewer: { name: 'Viewer', can: 'read only' },
};
