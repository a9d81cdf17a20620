/**
 * The dashboard's areas, in navigation order. A section's screens live under
 * `/w/:workspaceId/<path>` (and `also` the paths it owns beside it: a crawl, a report and a
 * diff are the Audits section's); routes.tsx maps each path to its page.
 */
export const sections: readonly { path: string; label: string; also?: readonly string[] }[] = [
  { path: 'images', label: 'Images' },
  { path: 'audits', label: 'Audits', also: ['crawls', 'reports', 'diff'] },
  { path: 'rules', label: 'Rules' },
  { path: 'team', label: 'Team' },
  { path: 'settings', label: 'Settings' },
];

/** The section a path under `/w/:workspaceId/` belongs to. */
export function sectionOf(pathUnderWorkspace: string): string | undefined {
  const first = pathUnderWorkspace.split('/')[0];
  return sections.find((section) => section.path === first || section.also?.includes(first ?? ''))?.path;
}
