import type { PageLink } from '@loupe/contract';
import { Link } from 'react-router';
import { type Column, DataTable } from '../components/data-table.tsx';
import { elementLabel, isBroken, kindLabel, relFlags } from './link-labels.ts';

/** Which end of each link the table names: the page it is on, where it leads, or both. */
export type LinkEnds = 'source' | 'target' | 'both';

export interface LinkTableProps {
  links: readonly PageLink[];
  ends: LinkEnds;
  caption: string;
  /** The address of a page of the report (its detail view). */
  pageHref: (pageId: string) => string;
}

/**
 * Links one row each (one per page, target and kind): where they are and lead, the anchor text
 * (an image's alt) with how often the page names the target and its other anchors, the element,
 * the rel flags, and what their target answered — its status, where it led after redirects and,
 * when it gave no usable answer, why.
 */
export function LinkTable({ links, ends, caption, pageHref }: LinkTableProps) {
  const columns: (Column | false)[] = [
    ends !== 'target' && 'Found on',
    ends !== 'source' && 'Links to',
    'Anchor text or alt',
    'Kind',
    'Rel',
    { label: 'Status', className: 'numeric' },
    'Final URL',
    'Reason',
  ];
  return (
    <DataTable
      className="link-table"
      caption={caption}
      columns={columns}
      items={links}
      row={(link) => <LinkRow key={`${link.sourceId} ${link.kind} ${link.targetUrl}`} link={link} ends={ends} pageHref={pageHref} />}
    />
  );
}

function LinkRow({ link, ends, pageHref }: { link: PageLink; ends: LinkEnds; pageHref: (pageId: string) => string }) {
  const element = elementLabel(link);
  const flags = relFlags(link);
  const broken = isBroken(link);
  const targetPage = pageOfTarget(link);
  return (
    <tr className={broken ? 'broken-link' : undefined}>
      {ends !== 'target' && (
        <td className="page-url">
          <Link to={pageHref(link.sourceId)}>{link.sourceUrl}</Link>
        </td>
      )}
      {ends !== 'source' && (
        <td className="page-url">{targetPage ? <Link to={pageHref(targetPage)}>{link.targetUrl}</Link> : link.targetUrl}</td>
      )}
      <AnchorCell link={link} />
      <td>
        {kindLabel(link.kind)}
        {element && <code className="small link-element">{element}</code>}
      </td>
      <td>
        {flags.length === 0 ? (
          <span className="muted">–</span>
        ) : (
          flags.map((flag) => (
            <span key={flag} className="badge subtle" title={flagTitles[flag]}>
              {flag}
            </span>
          ))
        )}
      </td>
      <td className={`numeric${broken ? ' status-code s4' : ''}`}>{link.status ?? <span className="muted">none</span>}</td>
      <td className="page-url">{link.finalUrl ?? <span className="muted">–</span>}</td>
      <td className={broken ? 'link-reason broken' : 'link-reason'}>{link.reason ?? <span className="muted">–</span>}</td>
    </tr>
  );
}

const flagTitles: Record<string, string> = {
  'partly nofollow': 'Some occurrences on the page are nofollow, others not: search engines follow the link',
};

/** The first anchor, a ×N when the page names the target more than once, and its other anchors behind a disclosure. */
function AnchorCell({ link }: { link: PageLink }) {
  const others = link.anchors.slice(1);
  return (
    <td className="link-anchor">
      {link.anchor ?? <span className="muted">{link.kind === 'image' ? 'no alt' : 'no text'}</span>}
      {link.occurrences > 1 && (
        <span className="badge subtle link-occurrences" title={occurrencesTitle(link)}>
          <span aria-hidden="true">×{link.occurrences}</span>
          <span className="visually-hidden">, named {link.occurrences} times on the page</span>
        </span>
      )}
      {others.length > 0 && (
        <details className="link-more-anchors">
          <summary>{others.length === 1 ? '1 other anchor' : `${others.length} other anchors`}</summary>
          <ul>
            {others.map((anchor) => (
              <li key={anchor}>{anchor}</li>
            ))}
          </ul>
        </details>
      )}
    </td>
  );
}

/** The hover text of the ×N: how often, and every anchor kept. */
function occurrencesTitle(link: PageLink): string {
  const times = `Named ${link.occurrences} times on the page`;
  return link.anchors.length === 0 ? times : `${times}: ${link.anchors.map((anchor) => `“${anchor}”`).join(', ')}`;
}

/**
 * The report page a link leads to, if any. A link names no kind for its target, and the page
 * view shows pages only: so a target in the report counts as a page when a link, canonical or
 * hreflang leads to it on the linking page's own site (images are assets, other sites external).
 */
function pageOfTarget(link: PageLink): string | null {
  if (link.targetId === null || link.kind === 'image') return null;
  try {
    return new URL(link.targetUrl).origin === new URL(link.sourceUrl).origin ? link.targetId : null;
  } catch {
    return null;
  }
}
