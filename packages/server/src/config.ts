import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_LINK_CHECKS } from './crawl/link-check-pool.ts';
import type { DiskSettings } from './disk/disk-guard.ts';
import type { Resolve } from './outbound/address-guard.ts';
import { DEFAULT_RENDER_CONCURRENCY } from './rendering/browser-pool.ts';
import { DEFAULT_CHROMIUM } from './rendering/rendering-browser.ts';
import { DEFAULT_RULE_BUDGETS, type RuleBudgets } from './rule-packs/rule-budgets.ts';
import { LIST_CACHE_BYTES, LIST_THRESHOLD } from './search/word-list-settings.ts';

const flagWithDefault = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback)
    .transform((value) => value === 'true' || value === '1');
const flag = flagWithDefault('false');

/** Without all of these, originals would silently stay on the local disk. */
const S3_REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/** Environment variables (DESIGN.md §3). A `.env` file is read by the CLI before this runs. */
const Env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    LOUPE_DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().optional(),
    LOUPE_PUBLIC_URL: z.url().optional(),
    LOUPE_DEFAULT_PLAN: z.string().optional(),
    LOUPE_BOOTSTRAP_KEY_FILE: z.string().optional(),
    LOUPE_BOOTSTRAP_KEY: z
      .string()
      .regex(/^loupe_[A-Za-z0-9_-]{24,}$/, 'must be loupe_ followed by at least 24 letters, digits, - or _')
      .optional(),
    LOUPE_CRAWL_ALLOW_PRIVATE: flag,
    LOUPE_CRAWL_CONCURRENCY: z.coerce.number().int().min(1).default(2),
    LOUPE_CHROMIUM_PATH: z.string().min(1).default(DEFAULT_CHROMIUM),
    LOUPE_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(DEFAULT_RENDER_CONCURRENCY),
    LOUPE_RENDER_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
    // Chromium's processes together; past it the browser is restarted between pages.
    LOUPE_RENDER_MEMORY_MB: z.coerce.number().int().min(128).default(1024),
    LOUPE_LINK_CHECK_CAP: z.coerce.number().int().min(0).default(DEFAULT_LINK_CHECKS.cap),
    LOUPE_LINK_CHECK_BUDGET_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(DEFAULT_LINK_CHECKS.budgetMs / 1000),
    LOUPE_SERVE_JOBS: flagWithDefault('true'),
    LOUPE_JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    // Well under systemd's 90 s before it sends SIGKILL.
    LOUPE_SHUTDOWN_SECONDS: z.coerce.number().int().min(1).max(600).default(20),
    LOUPE_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(1073741824),
    LOUPE_PLANS_FILE: z.string().optional(),
    LOUPE_MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(50 * 1024 * 1024),
    LOUPE_MAX_INPUT_PIXELS: z.coerce.number().int().min(1).default(100_000_000),
    // 8K UHD (33 Mpx) and then some; at 40 Mpx every output format encodes within half the
    // default 20 s transform timeout here (AVIF ~10 s, WebP ~7 s, JPEG ~3 s on 2 cores).
    LOUPE_MAX_OUTPUT_PIXELS: z.coerce.number().int().min(1).default(40_000_000),
    // Frames × pixels of an animation, decoded or made: imgproxy's summed-frames bound on
    // animated sources; 50 frames of 1000×1000, which encode as WebP within the transform timeout.
    LOUPE_MAX_ANIMATION_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
    LOUPE_MEMORY_CACHE_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(32 * 1024 * 1024),
    LOUPE_TRANSFORM_CONCURRENCY: z.coerce.number().int().min(1).default(availableParallelism()),
    LOUPE_TRANSFORM_QUEUE: z.coerce.number().int().min(0).default(64),
    LOUPE_TRANSFORM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(20),
    LOUPE_IMPORT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
    LOUPE_ORIGIN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
    LOUPE_ORIGIN_NOT_FOUND_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    LOUPE_SIGNING_GRACE_SECONDS: z.coerce.number().int().min(0).default(86_400),
    LOUPE_SCHEDULER_TICK_MS: z.coerce.number().int().min(0).default(15_000),
    LOUPE_SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    LOUPE_SMTP_FROM: z.string().min(3).default('Loupe <loupe@localhost>'),
    LOUPE_ALERT_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
    LOUPE_SEARCH_LIST_MIN_PAGES: z.coerce.number().int().min(1).default(LIST_THRESHOLD),
    LOUPE_SEARCH_CACHE_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(64 * 1024 * 1024),
    LOUPE_SEARCH_LIST_CACHE_BYTES: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .default(LIST_CACHE_BYTES),
    LOUPE_RULE_PAGE_BUDGET_MS: z.coerce.number().int().min(1).default(DEFAULT_RULE_BUDGETS.pageMs),
    LOUPE_RULE_PREVIEW_BUDGET_MS: z.coerce.number().int().min(1).default(DEFAULT_RULE_BUDGETS.previewMs),
    LOUPE_RULE_PREVIEW_DEADLINE_MS: z.coerce.number().int().min(1).default(DEFAULT_RULE_BUDGETS.previewDeadlineMs),
    LOUPE_RULE_REPORT_BUDGET_MS: z.coerce.number().int().min(1).default(DEFAULT_RULE_BUDGETS.reportMs),
    LOUPE_DISK_MIN_FREE_PERCENT: z.coerce.number().min(0).max(100).default(5),
    LOUPE_DISK_MIN_FREE_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(1024 * 1024 * 1024),
    LOUPE_DISK_RESERVE_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(16 * 1024 * 1024),
    LOUPE_METRICS_TOKEN: z.string().min(16, 'LOUPE_METRICS_TOKEN must be 16 characters or more').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    S3_ENDPOINT: z.url().optional(),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_PREFIX: z.string().optional(),
  })
  .superRefine((env, context) => {
    const given = [...S3_REQUIRED, 'S3_PREFIX' as const].filter((name) => env[name] !== undefined);
    if (given.length === 0) return;
    for (const name of S3_REQUIRED) {
      if (env[name] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `required when ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set (originals in an S3-compatible store)`,
        });
      }
    }
  });

/** An S3-compatible store for originals (DESIGN.md §2). */
export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key; empty or ending in `/`. */
  prefix?: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use instead of `public` (tests run each server in its own). */
  databaseSchema?: string;
  /** Where clients reach this instance; every URL it answers starts with it. */
  publicUrl: string;
  bootstrapKey?: string;
  /** Where the first start writes the generated API key (mode 0600) instead of the terminal. */
  bootstrapKeyFile?: string;
  /** The plan of the first workspace and of `loupe admin create-workspace` (plans/plans.ts checks it). */
  defaultPlan?: string;
  crawlAllowPrivate: boolean;
  /** Crawls one process (serve with the embedded queue, or each worker) runs at once. */
  crawlConcurrency: number;
  /**
   * Link checks of one crawl (links to other sites, images): at most `cap` are asked, and after
   * the last page they go on for at most `budgetSeconds`; the rest are reported as not checked.
   */
  linkChecks: { cap: number; budgetSeconds: number };
  /** Rendering crawls (issue #28): the browser, pages in it at once per crawl, a page's budget, the browser's memory. */
  rendering: { executablePath: string; concurrency: number; timeoutSeconds: number; memoryBudgetBytes: number };
  /** Tests only: answers the crawler's and imports' DNS lookups instead of the system resolver. */
  resolve?: Resolve;
  /** Tests only: how often a silent event stream sends a comment line (15 s when unset). */
  eventHeartbeatMs?: number;
  /** Tests only: how long a crawl waits for one page or link check (30 s when unset). */
  crawlTimeoutMs?: number;
  /** Whether `loupe serve` also runs background jobs (with PostgreSQL, `loupe worker` processes can take them instead). */
  serveJobs: boolean;
  /** How long a job stays with a worker that stopped renewing it (a crashed one) before another takes it. */
  jobLeaseSeconds: number;
  /** SIGTERM to exit: streams end, jobs go back to the queue, requests in flight finish; past it the process exits anyway. */
  shutdownSeconds: number;
  cacheMaxBytes: number;
  plansFile?: string;
  /** Set: originals go to this bucket instead of files under the data dir. */
  s3?: S3Config;
  /** Largest original accepted, in bytes (uploads and imports). */
  maxUploadBytes: number;
  /** Largest image decoded, in pixels (width × height): a bound against decompression bombs. */
  maxInputPixels: number;
  /** Largest image a transform makes, in pixels: larger requests are refused before decoding. */
  maxOutputPixels: number;
  /** Frames × pixels per frame of an animation decoded (upload and delivery) or made. */
  maxAnimationPixels: number;
  /** The in-memory tier of the variant cache, in bytes. */
  memoryCacheBytes: number;
  /** Transforms running at once, and waiting beyond that before 503. */
  transformConcurrency: number;
  transformQueue: number;
  /** Longest decode-and-transform before the request is refused. */
  transformTimeoutSeconds: number;
  /** Longest import of an image from a URL, redirects and body included. */
  importTimeoutSeconds: number;
  /** Longest fetch of a missing image from a project's origin, redirects and body included. */
  originTimeoutSeconds: number;
  /** How long a 404 at a project's origin is remembered before the origin is asked again. */
  originNotFoundSeconds: number;
  /** Tests only: the clock (ms) the origins' not-found memory reads, to end its window without waiting. */
  originClock?: () => number;
  /** How long the previous signing secret still verifies after a rotation. */
  signingGraceSeconds: number;
  /** How often each process looks for due schedules, in milliseconds; 0 turns its loop off. */
  schedulerTickMs: number;
  /** Alert emails go through this server (`smtp://user:pass@host:port`, `smtps://` for TLS from the start); unset, email channels fail. */
  smtpUrl?: string;
  /** The From of alert emails. */
  smtpFrom: string;
  /** The first wait before an alert is retried; each retry waits twice the one before (capped). */
  alertRetryBaseMs: number;
  /**
   * The pages a word must be on for a search index build to store its list of matches
   * (search/word-list-settings.ts): lower, more queries skip the database's ranking and the index grows.
   */
  searchListMinPages: number;
  /** Search answers kept per process (bytes); 0 keeps none. */
  searchCacheBytes: number;
  /** Search word lists kept decoded per process (bytes). */
  searchListCacheBytes: number;
  /** How long one custom rule may run on one page, over one preview or report build, and a whole preview (rule-packs/rule-budgets.ts). */
  ruleBudgets: RuleBudgets;
  /** When the data disk is nearly full (uploads 507, /readyz 503), and the reserve kept for a full one (disk/disk-guard.ts). */
  disk: DiskSettings;
  /** When set, GET /metrics wants it as a bearer token. */
  metricsToken: string | undefined;
  logLevel: string;
  /** Check every answer against its schema (on in tests: catches a service drifting from the contract). */
  validateResponses: boolean;
}

/**
 * The URL of the address the server listens on, the public URL's default: a wildcard address
 * (all interfaces) is reached as localhost, an IPv6 one in brackets.
 */
function listenUrl(host: string, port: number): string {
  const reachable = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host;
  return `http://${reachable.includes(':') && !reachable.startsWith('[') ? `[${reachable}]` : reachable}:${port}`;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`FOO=` in a shell or .env) means unset.
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const prefix = e.S3_PREFIX?.replace(/^\/+|\/+$/g, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.LOUPE_DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    publicUrl: (e.LOUPE_PUBLIC_URL ?? listenUrl(e.HOST, e.PORT)).replace(/\/$/, ''),
    bootstrapKey: e.LOUPE_BOOTSTRAP_KEY,
    bootstrapKeyFile: e.LOUPE_BOOTSTRAP_KEY_FILE ? resolve(e.LOUPE_BOOTSTRAP_KEY_FILE) : undefined,
    defaultPlan: e.LOUPE_DEFAULT_PLAN,
    crawlAllowPrivate: e.LOUPE_CRAWL_ALLOW_PRIVATE,
    crawlConcurrency: e.LOUPE_CRAWL_CONCURRENCY,
    linkChecks: { cap: e.LOUPE_LINK_CHECK_CAP, budgetSeconds: e.LOUPE_LINK_CHECK_BUDGET_SECONDS },
    rendering: {
      executablePath: e.LOUPE_CHROMIUM_PATH,
      concurrency: e.LOUPE_RENDER_CONCURRENCY,
      timeoutSeconds: e.LOUPE_RENDER_TIMEOUT_SECONDS,
      memoryBudgetBytes: e.LOUPE_RENDER_MEMORY_MB * 1024 * 1024,
    },
    serveJobs: e.LOUPE_SERVE_JOBS,
    jobLeaseSeconds: e.LOUPE_JOB_LEASE_SECONDS,
    shutdownSeconds: e.LOUPE_SHUTDOWN_SECONDS,
    cacheMaxBytes: e.LOUPE_CACHE_MAX_BYTES,
    plansFile: e.LOUPE_PLANS_FILE,
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT as string,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID as string,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
          prefix: prefix ? `${prefix}/` : undefined,
        }
      : undefined,
    maxUploadBytes: e.LOUPE_MAX_UPLOAD_BYTES,
    maxInputPixels: e.LOUPE_MAX_INPUT_PIXELS,
    maxOutputPixels: e.LOUPE_MAX_OUTPUT_PIXELS,
    maxAnimationPixels: e.LOUPE_MAX_ANIMATION_PIXELS,
    memoryCacheBytes: e.LOUPE_MEMORY_CACHE_BYTES,
    transformConcurrency: e.LOUPE_TRANSFORM_CONCURRENCY,
    transformQueue: e.LOUPE_TRANSFORM_QUEUE,
    transformTimeoutSeconds: e.LOUPE_TRANSFORM_TIMEOUT_SECONDS,
    importTimeoutSeconds: e.LOUPE_IMPORT_TIMEOUT_SECONDS,
    originTimeoutSeconds: e.LOUPE_ORIGIN_TIMEOUT_SECONDS,
    originNotFoundSeconds: e.LOUPE_ORIGIN_NOT_FOUND_SECONDS,
    signingGraceSeconds: e.LOUPE_SIGNING_GRACE_SECONDS,
    schedulerTickMs: e.LOUPE_SCHEDULER_TICK_MS,
    smtpUrl: e.LOUPE_SMTP_URL,
    smtpFrom: e.LOUPE_SMTP_FROM,
    alertRetryBaseMs: e.LOUPE_ALERT_RETRY_BASE_MS,
    searchListMinPages: e.LOUPE_SEARCH_LIST_MIN_PAGES,
    searchCacheBytes: e.LOUPE_SEARCH_CACHE_BYTES,
    searchListCacheBytes: e.LOUPE_SEARCH_LIST_CACHE_BYTES,
    ruleBudgets: {
      pageMs: e.LOUPE_RULE_PAGE_BUDGET_MS,
      previewMs: e.LOUPE_RULE_PREVIEW_BUDGET_MS,
      previewDeadlineMs: e.LOUPE_RULE_PREVIEW_DEADLINE_MS,
      reportMs: e.LOUPE_RULE_REPORT_BUDGET_MS,
    },
    disk: {
      minFreePercent: e.LOUPE_DISK_MIN_FREE_PERCENT,
      minFreeBytes: e.LOUPE_DISK_MIN_FREE_BYTES,
      reserveBytes: e.LOUPE_DISK_RESERVE_BYTES,
    },
    metricsToken: e.LOUPE_METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    validateResponses: false,
  };
}
