import { LoupeError, type OperationDefinition } from '@loupe/contract';

export interface Toolset {
  name: string;
  description: string;
  /** The registry tags whose operations it holds. */
  tags: readonly string[];
}

/**
 * The tools grouped as a client configures them (`loupe mcp --toolsets`, `/mcp?toolsets=`):
 * by the registry's tags, so a new operation joins its tag's toolset; the Reports tag is split
 * by operation, its link, sharing and diff tools being most of its listing.
 */
export const toolsets: readonly Toolset[] = [
  {
    name: 'images',
    description: 'Image projects and images: upload, list, update, delete; cdn_url builds delivery URLs.',
    tags: ['Image projects', 'Images'],
  },
  { name: 'presets', description: 'Named transform presets (resize, crop, format, quality) applied on delivery.', tags: ['Presets'] },
  {
    name: 'cdn',
    description:
      "CDN URL signing settings, the origin missing images are fetched from, per-day CDN usage, and purging an image's or a project's cached variants.",
    tags: ['Signing', 'Origins', 'Usage'],
  },
  {
    name: 'crawls',
    description: 'Start, estimate, follow and cancel site crawls; credits balance and ledger.',
    tags: ['Crawls', 'Credits'],
  },
  { name: 'reports', description: 'Audit reports: summary, pages, issue instances, exports.', tags: ['Reports'] },
  { name: 'links', description: "Links of a report: a page's outlinks and inlinks, every link, broken links export.", tags: [] },
  { name: 'sharing', description: 'Share a report at a secret link, read or revoke it.', tags: [] },
  {
    name: 'screenshots',
    description: "The first screen of a rendering crawl's pages, as images (by report, or through a share link).",
    tags: [],
  },
  {
    name: 'audits',
    description: 'Audit projects (a site with crawl defaults, its crawls, reports and score trend) and report diffs.',
    tags: ['Projects'],
  },
  { name: 'monitoring', description: 'Scheduled crawls and alerts (webhooks, email) on a project.', tags: ['Schedules', 'Alerts'] },
  { name: 'rules', description: 'Custom rule packs: write, validate, preview on real pages.', tags: ['Rule packs'] },
  { name: 'search', description: "Full-text search over a project's crawled pages.", tags: ['Search'] },
  { name: 'team', description: 'Workspace settings and plan, members, invites, API keys.', tags: ['Keys', 'Team'] },
];

/** Listed whatever the configuration: choosing a workspace and finding the other toolsets. */
export const CORE_TOOLSET = 'core';

/** Small enough for clients that cap a listing, and enough to store images and audit a site. */
export const DEFAULT_TOOLSETS: readonly string[] = ['images', 'crawls', 'reports'];

/** Operations placed apart from their tag's toolset. */
const byOperation: Record<string, string> = {
  listTeams: CORE_TOOLSET,
  listPageOutlinks: 'links',
  listPageInlinks: 'links',
  listReportLinks: 'links',
  exportBrokenLinks: 'links',
  shareReport: 'sharing',
  getReportShare: 'sharing',
  unshareReport: 'sharing',
  getSharedReport: 'sharing',
  // Images weigh on a client's context: asked for, not listed by default.
  getReportPageScreenshot: 'screenshots',
  getSharedReportPageScreenshot: 'screenshots',
  diffReports: 'audits',
  // Cache maintenance, rarely needed: the default listing stays within what clients accept.
  purgeImageVariants: 'cdn',
  purgeProjectVariants: 'cdn',
};

export function toolsetOf(operation: OperationDefinition): string {
  const named = byOperation[operation.id] ?? toolsets.find((toolset) => toolset.tags.includes(operation.tag))?.name;
  if (!named) throw new Error(`No toolset holds the tag ${operation.tag} (${operation.id}): add it to toolsets.ts.`);
  return named;
}

/**
 * The toolsets a configuration names, comma-separated (`all` for every one); the default ones
 * when it names none. An unknown name is refused with the list of names.
 */
export function chosenToolsets(text: string | undefined): string[] {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return [...DEFAULT_TOOLSETS];
  if (names.includes('all')) return toolsets.map((toolset) => toolset.name);
  const unknown = names.filter((name) => !toolsets.some((toolset) => toolset.name === name));
  if (unknown.length > 0) {
    throw new LoupeError('validation_failed', {
      message: `Unknown toolset ${unknown.join(', ')}: choose among ${toolsets.map((toolset) => toolset.name).join(', ')}, or all.`,
      details: { fieldErrors: { toolsets: [`Unknown: ${unknown.join(', ')}.`] }, formErrors: [] },
    });
  }
  return [...new Set(names)];
}
