import type { Migration } from 'kysely';
import * as identityAndImages from './0001-identity-and-images.ts';
import * as signingAndUsage from './0002-signing-and-usage.ts';
import * as crawlsAndCredits from './0003-crawls-and-credits.ts';
import * as jobQueue from './0004-job-queue.ts';
import * as auditReports from './0005-audit-reports.ts';
import * as nearDuplicates from './0006-near-duplicates.ts';
import * as auditProjects from './0007-audit-projects.ts';
import * as teamInvites from './0008-team-invites.ts';
import * as rulePacks from './0009-rule-packs.ts';
import * as pageBodies from './0010-page-bodies.ts';
import * as schedules from './0011-schedules.ts';
import * as alerts from './0012-alerts.ts';
import * as searchIndex from './0014-search-index.ts';
import * as sessions from './0015-sessions.ts';
import * as hreflangAnnotations from './0016-hreflang-annotations.ts';
import * as creditAllowances from './0017-credit-allowances.ts';
import * as crawlLastUrl from './0018-crawl-last-url.ts';
import * as searchWordPostings from './0019-search-word-postings.ts';
import * as postgresWordPostings from './0020-postgres-word-postings.ts';
import * as searchWordMarks from './0021-search-word-marks.ts';
import * as searchDocumentIdsInline from './0022-search-document-ids-inline.ts';
import * as searchSnippetsFromText from './0023-search-snippets-from-text.ts';
import * as passwordResets from './0024-password-resets.ts';
import * as crawlProgress from './0025-crawl-progress.ts';
import * as linkDetails from './0026-link-details.ts';
import * as findingInstances from './0027-finding-instances.ts';
import * as linkTargets from './0030-link-targets.ts';
import * as linkOccurrences from './0031-link-occurrences.ts';
import * as imageOrigins from './0032-image-origins.ts';
import * as clientHints from './0033-client-hints.ts';
import * as projectEnlarge from './0034-project-enlarge.ts';
import * as keepMetadata from './0035-keep-metadata.ts';
import * as imageFrames from './0036-image-frames.ts';
import * as pageRenders from './0037-page-renders.ts';

/** Versioned migrations, applied in name order on start. Never edit one that has shipped: add the next. */
export const migrations: Record<string, Migration> = {
  '0001-identity-and-images': identityAndImages,
  '0002-signing-and-usage': signingAndUsage,
  '0003-crawls-and-credits': crawlsAndCredits,
  '0004-job-queue': jobQueue,
  '0005-audit-reports': auditReports,
  '0006-near-duplicates': nearDuplicates,
  '0007-audit-projects': auditProjects,
  '0008-team-invites': teamInvites,
  '0009-rule-packs': rulePacks,
  '0010-page-bodies': pageBodies,
  '0011-schedules': schedules,
  '0012-alerts': alerts,
  '0014-search-index': searchIndex,
  '0015-sessions': sessions,
  '0016-hreflang-annotations': hreflangAnnotations,
  '0017-credit-allowances': creditAllowances,
  '0018-crawl-last-url': crawlLastUrl,
  '0019-search-word-postings': searchWordPostings,
  '0020-postgres-word-postings': postgresWordPostings,
  '0021-search-word-marks': searchWordMarks,
  '0022-search-document-ids-inline': searchDocumentIdsInline,
  '0023-search-snippets-from-text': searchSnippetsFromText,
  '0024-password-resets': passwordResets,
  '0025-crawl-progress': crawlProgress,
  '0026-link-details': linkDetails,
  '0027-finding-instances': findingInstances,
  '0030-link-targets': linkTargets,
  '0031-link-occurrences': linkOccurrences,
  '0032-image-origins': imageOrigins,
  '0033-client-hints': clientHints,
  '0034-project-enlarge': projectEnlarge,
  '0035-keep-metadata': keepMetadata,
  '0036-image-frames': imageFrames,
  '0037-page-renders': pageRenders,
};
