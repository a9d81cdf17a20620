import { type ErrorCode, errorCodes, LoupeError, type ValidationDetails } from '@loupe/contract';
import { retryAfterMs } from './retry-delay.ts';

/**
 * For an answer that is not a Loupe error body (a proxy's HTML page, an empty body, a code
 * this SDK does not know yet): the catalogue's plain code for the status.
 */
const codeByStatus: Partial<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'not_ready',
};

/** How much of an unexpected body the error keeps (in `extra.body`), enough to recognise a proxy's page. */
const BODY_EXCERPT_CHARS = 500;

/**
 * The failed answer as a LoupeError: the API's code, message, details and extra fields
 * (`required` and `balance` of a 402, `limit` and `current` of a plan limit…), and always
 * the status the answer came with.
 */
export async function errorFromResponse(response: Response): Promise<LoupeError> {
  const text = await response.text().catch(() => '');
  const body = parseJson(text);
  const fallback = codeByStatus[response.status] ?? (response.status >= 500 ? 'internal_error' : 'validation_failed');
  let error: LoupeError;
  if (isErrorBody(body)) {
    const { error: message, code, details, ...extra } = body;
    const known = errorCodes.includes(code as ErrorCode);
    error = new LoupeError(known ? (code as ErrorCode) : fallback, {
      message,
      details: details as ValidationDetails | undefined,
      extra: known ? extra : { ...extra, unrecognizedCode: code },
    });
  } else {
    const type = response.headers.get('content-type')?.split(';')[0] || 'no content type';
    error = new LoupeError(fallback, {
      message: `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} (${type}) without a Loupe error body.`,
      extra: text ? { body: text.slice(0, BODY_EXCERPT_CHARS) } : {},
    });
  }
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  if (retryAfter !== undefined && error.extra.retryAfter === undefined) error.extra.retryAfter = Math.ceil(retryAfter / 1000);
  // The catalogue fixes a status per code; the status on the wire is the truth (a proxy's 502 is not our 500).
  return Object.assign(error, { status: response.status });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(body: unknown): body is { error: string; code: string; details?: unknown; [extra: string]: unknown } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { error?: unknown }).error === 'string' &&
    typeof (body as { code?: unknown }).code === 'string'
  );
}
