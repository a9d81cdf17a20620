/**
 * The dashboard's areas, in navigation order. A section's screens live under
 * `/w/:workspaceId/<path>`; routes.tsx maps each path to its page.
 */
export const sections = [
  { path: 'images', label: 'Images' },
  { path: 'audits', label: 'Audits' },
  { path: 'team', label: 'Team' },
  { path: 'settings', label: 'Settings' },
] as const;

export type SectionPath = (typeof sections)[number]['path'];
