import { LoupeError } from '@loupe/contract';

/**
 * What a `loupe` process's exit status means, so scripts can branch on it without parsing
 * output. Never renumber one: scripts in the wild depend on them.
 */
export const exitCodes = {
  ok: 0,
  /** The server failed (5xx) or something unexpected happened. */
  failed: 1,
  /** Bad flags or arguments, or input the server refused as invalid (400, 413, 415). */
  usage: 2,
  /** No key, an unknown or expired key, or a key without the right (401, 403). */
  denied: 3,
  /** An unknown id, or one of another workspace (404, 410). */
  notFound: 4,
  /** Not enough credits, or a feature the plan lacks (402). */
  payment: 5,
  /** A conflict: a name taken, a project not crawled yet, an index not built (409). */
  conflict: 6,
  /** The server is unreachable, rate limited or overloaded (429, 503): try again later. */
  unavailable: 7,
  /** `loupe crawl` followed a crawl that ended failed or canceled. */
  crawlIncomplete: 8,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

const byStatus: Record<number, ExitCode> = {
  400: exitCodes.usage,
  401: exitCodes.denied,
  402: exitCodes.payment,
  403: exitCodes.denied,
  404: exitCodes.notFound,
  409: exitCodes.conflict,
  410: exitCodes.notFound,
  413: exitCodes.usage,
  415: exitCodes.usage,
  429: exitCodes.unavailable,
  503: exitCodes.unavailable,
};

/** The exit status for a command that failed with this error. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof LoupeError) return byStatus[error.status] ?? exitCodes.failed;
  return exitCodes.failed;
}

/** The epilogue of `loupe --help`; the README's table says the same. */
export const exitCodesHelp = `
Exit codes:
  0  success
  1  server error (5xx) or unexpected failure
  2  usage error, or input the server refused as invalid (400, 413, 415)
  3  missing, unknown or expired key, or not allowed (401, 403)
  4  not found (404, 410)
  5  insufficient credits, or a feature the plan lacks (402)
  6  conflict: name taken, not crawled yet, index not built (409)
  7  server unreachable, rate limited or overloaded: retry later (429, 503)
  8  the followed crawl ended failed or canceled (loupe crawl)

With --json, a command prints exactly one JSON document on stdout; a failure prints the
API's error body ({"error", "code", "details"?}) on stderr instead.`;
