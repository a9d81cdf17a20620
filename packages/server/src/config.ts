import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

/** Environment variables (DESIGN.md §3). A `.env` file is read by the CLI before this runs. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  LOUPE_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  LOUPE_PUBLIC_URL: z.url().default('http://localhost:8080'),
  LOUPE_BOOTSTRAP_KEY: z
    .string()
    .regex(/^loupe_[A-Za-z0-9_-]{24,}$/, 'must be loupe_ followed by at least 24 letters, digits, - or _')
    .optional(),
  LOUPE_CRAWL_ALLOW_PRIVATE: flag,
  LOUPE_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(1073741824),
  LOUPE_PLANS_FILE: z.string().optional(),
  LOUPE_MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
  LOUPE_MAX_INPUT_PIXELS: z.coerce.number().int().min(1).default(100_000_000),
  LOUPE_MEMORY_CACHE_BYTES: z.coerce.number().int().min(0).default(64 * 1024 * 1024),
  LOUPE_TRANSFORM_CONCURRENCY: z.coerce.number().int().min(1).default(availableParallelism()),
  LOUPE_TRANSFORM_QUEUE: z.coerce.number().int().min(0).default(64),
  LOUPE_TRANSFORM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(20),
  LOUPE_SIGNING_GRACE_SECONDS: z.coerce.number().int().min(0).default(86_400),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use instead of `public` (tests run each server in its own). */
  databaseSchema?: string;
  publicUrl: string;
  bootstrapKey?: string;
  crawlAllowPrivate: boolean;
  cacheMaxBytes: number;
  plansFile?: string;
  /** Largest original accepted, in bytes (uploads and imports). */
  maxUploadBytes: number;
  /** Largest image decoded, in pixels (width × height): a bound against decompression bombs. */
  maxInputPixels: number;
  /** The in-memory tier of the variant cache, in bytes. */
  memoryCacheBytes: number;
  /** Transforms running at once, and waiting beyond that before 503. */
  transformConcurrency: number;
  transformQueue: number;
  /** Longest decode-and-transform before the request is refused. */
  transformTimeoutSeconds: number;
  /** How long the previous signing secret still verifies after a rotation. */
  signingGraceSeconds: number;
  logLevel: string;
  /** Check every answer against its schema (on in tests: catches a service drifting from the contract). */
  validateResponses: boolean;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`FOO=` in a shell or .env) means unset.
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.LOUPE_DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    publicUrl: e.LOUPE_PUBLIC_URL.replace(/\/$/, ''),
    bootstrapKey: e.LOUPE_BOOTSTRAP_KEY,
    crawlAllowPrivate: e.LOUPE_CRAWL_ALLOW_PRIVATE,
    cacheMaxBytes: e.LOUPE_CACHE_MAX_BYTES,
    plansFile: e.LOUPE_PLANS_FILE,
    maxUploadBytes: e.LOUPE_MAX_UPLOAD_BYTES,
    maxInputPixels: e.LOUPE_MAX_INPUT_PIXELS,
    memoryCacheBytes: e.LOUPE_MEMORY_CACHE_BYTES,
    transformConcurrency: e.LOUPE_TRANSFORM_CONCURRENCY,
    transformQueue: e.LOUPE_TRANSFORM_QUEUE,
    transformTimeoutSeconds: e.LOUPE_TRANSFORM_TIMEOUT_SECONDS,
    signingGraceSeconds: e.LOUPE_SIGNING_GRACE_SECONDS,
    logLevel: e.LOG_LEVEL,
    validateResponses: false,
  };
}
