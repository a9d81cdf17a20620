import { join } from 'node:path';
import { alertHandlers } from './alerts/alert-handlers.ts';
import { AlertService } from './alerts/alert-service.ts';
import { AlertTrigger } from './alerts/alert-trigger.ts';
import { EmailSender } from './alerts/email-sender.ts';
import { auditProjectHandlers } from './audit-projects/audit-project-handlers.ts';
import { AuditProjectService } from './audit-projects/audit-project-service.ts';
import { deliveryHandlers } from './cdn/delivery-handlers.ts';
import { DeliveryService, variantKeyPrefix } from './cdn/delivery-service.ts';
import { DeliveryStore } from './cdn/delivery-store.ts';
import { QualityChooser } from './cdn/quality-chooser.ts';
import { SigningService } from './cdn/signing-service.ts';
import { TransformLimiter } from './cdn/transform-limiter.ts';
import { UsageRecorder } from './cdn/usage-recorder.ts';
import { UsageService } from './cdn/usage-service.ts';
import { UsageStore } from './cdn/usage-store.ts';
import { VariantCache } from './cdn/variant-cache.ts';
import { crawlHandlers } from './crawl/crawl-handlers.ts';
import { crawlServiceFor } from './crawl/crawl-service.ts';
import { CrawlStore } from './crawl/crawl-store.ts';
import { creditHandlers } from './credits/credit-handlers.ts';
import { CreditService } from './credits/credit-service.ts';
import { diffHandlers } from './diff/diff-handlers.ts';
import { DiffService } from './diff/diff-service.ts';
import type { Handlers } from './http/handlers.ts';
import { ApiKeyService } from './identity/api-key-service.ts';
import { ApiKeyStore } from './identity/api-key-store.ts';
import { Authenticator } from './identity/authenticator.ts';
import { KeyCache } from './identity/key-cache.ts';
import { keyHandlers } from './identity/key-handlers.ts';
import { WorkspaceStore } from './identity/workspace-store.ts';
import { imageHandlers } from './images/image-handlers.ts';
import { ImageImporter } from './images/image-importer.ts';
import { inspectUpload } from './images/image-inspector.ts';
import { ImageService } from './images/image-service.ts';
import { presetHandlers } from './images/preset-handlers.ts';
import { PresetService } from './images/preset-service.ts';
import { projectHandlers } from './images/project-handlers.ts';
import { ProjectService } from './images/project-service.ts';
import { UploadSlotService } from './images/upload-slot-service.ts';
import type { Infrastructure } from './infrastructure.ts';
import type { Metrics } from './metrics/metrics.ts';
import { planHandlers } from './plans/plan-handlers.ts';
import { reportHandlers } from './reports/report-handlers.ts';
import { ReportService } from './reports/report-service.ts';
import { ReportStore } from './reports/report-store.ts';
import { crawlProjects } from './rule-packs/crawl-projects.ts';
import { rulePackHandlers } from './rule-packs/rule-pack-handlers.ts';
import { RulePackPreviewService } from './rule-packs/rule-pack-preview.ts';
import { RulePackService } from './rule-packs/rule-pack-service.ts';
import { scheduleHandlers } from './schedules/schedule-handlers.ts';
import { ScheduleService } from './schedules/schedule-service.ts';
import { readyBuildsOf } from './search/ready-builds.ts';
import { searchHandlers } from './search/search-handlers.ts';
import { SearchService } from './search/search-service.ts';
import { PasswordResetService } from './sessions/password-reset-service.ts';
import { SessionService } from './sessions/session-service.ts';
import { SetupService } from './sessions/setup-service.ts';
import { InviteService } from './team/invite-service.ts';
import { MemberService } from './team/member-service.ts';
import { teamHandlers } from './team/team-handlers.ts';
import { TeamService } from './team/team-service.ts';
import { FaceDetector, findFace } from './transform/face-detector.ts';
import { encodeJxl } from './transform/jxl-encoder.ts';
import { findQualityForMode } from './transform/perceptual-quality.ts';

/** Wires the capabilities together: stores into services, services into operation handlers and the CDN. */
export async function composeServices({ config, database, plans, blobs, disk, fetcher, log, jobs }: Infrastructure, metrics: Metrics) {
  const cache = new VariantCache({
    directory: join(config.dataDir, 'variants'),
    maxDiskBytes: config.cacheMaxBytes,
    maxMemoryBytes: config.memoryCacheBytes,
    spareBytes: () => disk.spareBytes(),
  });
  await cache.open();
  disk.giveWayFirst(cache);
  const purgeVariants = (blobKey: string) => cache.purgePrefix(variantKeyPrefix(blobKey));
  const projects = new ProjectService(database, plans, blobs, purgeVariants, disk);
  const presets = new PresetService(database, projects, config.maxOutputPixels);
  const images = new ImageService({
    database,
    projects,
    blobs,
    disk,
    plans,
    importer: new ImageImporter(fetcher, { maxBytes: config.maxUploadBytes, deadlineSeconds: config.importTimeoutSeconds }),
    inspect: (data) => inspectUpload(data, { maxInputPixels: config.maxInputPixels, maxAnimationPixels: config.maxAnimationPixels }),
    purgeVariants,
    publicUrl: config.publicUrl,
  });
  const uploadSlots = new UploadSlotService({ database, projects, images, blobs, plans, publicUrl: config.publicUrl });
  const keyCache = new KeyCache();
  const keys = new ApiKeyService(new ApiKeyStore(database), keyCache.forgetAll);
  const credits = new CreditService(database, plans);
  const sessions = new SessionService(database);
  const passwordResets = new PasswordResetService({
    database,
    publicUrl: config.publicUrl,
    mailer: config.smtpUrl ? new EmailSender({ smtpUrl: config.smtpUrl, from: config.smtpFrom }) : null,
    keysChanged: keyCache.forgetAll,
    onMailFailed: ({ email, error }) => log.warn({ email, err: error }, 'a password reset mail did not go out'),
  });
  const authenticator = new Authenticator(
    { store: new ApiKeyStore(database), cache: keyCache },
    new WorkspaceStore(database),
    (error) => log.warn({ err: error }, 'could not record key use'),
    sessions,
  );

  const usage = new UsageRecorder(new UsageStore(database), (error) => log.warn({ err: error }, 'could not save CDN usage'));
  const faces = new FaceDetector();
  const deliveryStore = new DeliveryStore(database);
  const delivery = new DeliveryService({
    store: deliveryStore,
    blobs,
    cache,
    limiter: new TransformLimiter({ concurrency: config.transformConcurrency, maxQueued: config.transformQueue }),
    usage,
    quality: new QualityChooser(database, (original, format, mode) =>
      findQualityForMode(original, format, mode, { maxInputPixels: config.maxInputPixels, encodeJxl }),
    ),
    pipeline: { findFace: findFace(faces), encodeJxl, maxAnimationPixels: config.maxAnimationPixels },
    maxInputPixels: config.maxInputPixels,
    maxOutputPixels: config.maxOutputPixels,
    timeoutSeconds: config.transformTimeoutSeconds,
  });
  const signing = new SigningService({ database, projects, publicUrl: config.publicUrl, graceSeconds: config.signingGraceSeconds });

  const crawls = crawlServiceFor({ config, database, plans, jobs }, crawlProjects(database));

  const reports = new ReportService(database, { publicUrl: config.publicUrl });
  const rulePacks = new RulePackService(database, plans);
  const auditProjects = new AuditProjectService(database, crawls, {
    rulePacks,
    reports: new ReportStore(database),
    forgetIndex: (projectId) => readyBuildsOf(database).forget(projectId),
  });

  // A preview runs over the pages of a project's newest report: rule-packs ask reports for its crawl.
  const crawlOfReport = async (workspaceId: string, reportId: string) =>
    (await new ReportStore(database).find(workspaceId, reportId))?.crawl_id;
  const handlers: Handlers = {
    ...projectHandlers(projects),
    ...presetHandlers(presets),
    ...imageHandlers(images, uploadSlots),
    ...deliveryHandlers(signing, new UsageService(database, projects, usage)),
    ...crawlHandlers(crawls, new CrawlStore(database)),
    ...keyHandlers(keys),
    ...creditHandlers(credits),
    ...planHandlers(plans),
    ...reportHandlers(reports),
    ...diffHandlers(new DiffService(database)),
    ...rulePackHandlers(rulePacks, new RulePackPreviewService(database, auditProjects, rulePacks, config.ruleBudgets, crawlOfReport)),
    ...teamHandlers(
      new TeamService(database, plans, { defaultPlan: plans.defaultPlan(config.defaultPlan) }),
      new MemberService(database, keyCache.forgetAll),
      new InviteService(database, config.publicUrl),
    ),
    ...auditProjectHandlers(auditProjects),
    ...scheduleHandlers(new ScheduleService(database, plans, auditProjects)),
    ...searchHandlers(
      // One job per build: the one-build-per-project rule is the database's (a unique index), so a
      // build that replaced a stalled one is never answered with the stalled one's job.
      new SearchService(
        database,
        auditProjects,
        async (buildId) => {
          await jobs.send('search-index.build', { buildId }, { singletonKey: `search-index:${buildId}` });
        },
        {
          cacheBytes: config.searchCacheBytes,
          listCacheBytes: config.searchListCacheBytes,
          observe: (source) => metrics.searchAnswered(source),
        },
      ),
    ),
    ...alertHandlers(
      new AlertService({
        database,
        projects: auditProjects,
        trigger: new AlertTrigger(database, jobs),
        allowPrivate: config.crawlAllowPrivate,
      }),
    ),
  };
  return {
    handlers,
    authenticator,
    sessions,
    passwordResets,
    setup: new SetupService(database),
    delivery,
    deliveryStore,
    uploadSlots,
    reports,
    async close() {
      await passwordResets.close();
      await usage.close();
      await cache.close();
      await faces.close();
    },
  };
}
