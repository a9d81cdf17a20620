/**
 * The error catalogue: every error the service can answer, with its HTTP status and the
 * message a caller sees when the thrower gives none. Codes are never reused or renamed
 * (DESIGN.md §4); a test checks they are unique and listed in the OpenAPI document.
 */
export const errorCatalogue = {
  validation_failed: { status: 400, message: 'The request is not valid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_image: { status: 400, message: 'The image is damaged or truncated.' },
  animation_too_large: {
    status: 400,
    message: 'The animation has more frames × pixels than this server decodes or makes (LOUPE_MAX_ANIMATION_PIXELS).',
  },
  output_too_large: { status: 400, message: 'The requested output has more pixels than this server produces (LOUPE_MAX_OUTPUT_PIXELS).' },
  team_header_required: {
    status: 400,
    message: 'The workspace API needs the x-service-team header with a workspace id.',
  },
  reports_not_comparable: {
    status: 400,
    message: 'These reports are of two different sites; pass allowCrossSite=true to compare them anyway.',
  },
  unauthorized: { status: 401, message: 'A valid API key is required.' },
  sign_in_required: {
    status: 401,
    message: 'This invite is for an existing account: sign in as that account, then accept it.',
  },
  invalid_credentials: { status: 401, message: 'The email or the password is not right.' },
  insufficient_credits: { status: 402, message: 'The workspace does not have enough credits.' },
  plan_feature_unavailable: { status: 402, message: "The workspace's plan does not include this feature." },
  forbidden: { status: 403, message: 'This key is not allowed to do that.' },
  not_a_member: { status: 403, message: 'You are not a member of this workspace.' },
  invite_for_another_account: {
    status: 403,
    message: 'This invite was sent to another email than the account you are signed in as.',
  },
  csrf_failed: {
    status: 403,
    message: 'A change made with a session cookie needs its CSRF token in the x-csrf-token header.',
  },
  plan_limit_reached: { status: 403, message: "The workspace's plan limit is reached." },
  signature_required: { status: 403, message: 'This project serves signed URLs only.' },
  signature_invalid: { status: 403, message: 'The URL signature does not match.' },
  signature_expired: { status: 403, message: 'This signed URL has expired.' },
  not_found: { status: 404, message: 'Not found.' },
  preset_name_taken: { status: 409, message: 'A preset with this name already exists in the project.' },
  custom_domain_taken: { status: 409, message: 'This custom domain is used by another project.' },
  origin_secret_required: {
    status: 409,
    message: 'No secret is stored for this endpoint and access key id: send secretAccessKey.',
  },
  signing_disabled: { status: 409, message: 'Enable signing for this project first.' },
  schedule_limit_reached: { status: 409, message: 'The project has as many schedules as a project may have.' },
  rule_pack_name_taken: { status: 409, message: 'A rule pack with this name already exists in the workspace.' },
  last_owner: { status: 409, message: 'A workspace keeps at least one owner: make another member owner first.' },
  already_member: { status: 409, message: 'This person is already a member of the workspace.' },
  project_not_crawled: { status: 409, message: 'The project has no report yet: crawl it first.' },
  already_set_up: { status: 409, message: 'This instance is set up already: sign in instead.' },
  search_index_not_built: { status: 409, message: "The project's search index is not built yet: build it first." },
  invite_expired: { status: 410, message: 'This invite has expired; ask for a new one.' },
  upload_expired: { status: 410, message: 'This upload slot has expired; ask for a new one.' },
  reset_link_expired: { status: 410, message: 'This password reset link has expired; ask for a new one.' },
  precondition_failed: { status: 412, message: "The file does not meet the request's preconditions (If-Match, If-Unmodified-Since)." },
  payload_too_large: { status: 413, message: 'The request is too large.' },
  unsupported_media_type: { status: 415, message: 'This media type is not supported.' },
  range_not_satisfiable: { status: 416, message: 'The Range header asks for bytes the file does not have, or is malformed.' },
  rate_limited: { status: 429, message: 'Too many requests.' },
  headers_too_large: { status: 431, message: 'The request line and headers are larger than 16 KB.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  // 501: the server lacks what the request needs (RFC 9110 §15.6.2); no retry helps until its operator sets SMTP up.
  smtp_not_configured: {
    status: 501,
    message:
      'This server sends no email (LOUPE_SMTP_URL is not set): ask its operator for a reset link (`loupe admin reset-password <email>`).',
  },
  // 501 as for SMTP: this server lacks the browser a rendering crawl needs, and no retry helps.
  rendering_unavailable: {
    status: 501,
    message: 'This server has no browser to render pages with (LOUPE_CHROMIUM_PATH): crawl without render, or ask its operator.',
  },
  origin_failed: { status: 502, message: "The project's origin did not answer with an image that could be stored." },
  not_ready: { status: 503, message: 'The service is not ready.' },
  overloaded: { status: 503, message: 'Too many images are being transformed; retry shortly.' },
  transform_timeout: { status: 503, message: 'Transforming this image took too long; retry shortly or ask for a smaller output.' },
  origin_timeout: { status: 504, message: "The project's origin did not answer in time." },
  insufficient_storage: { status: 507, message: "The server's storage is full: delete something, or retry once space is freed." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** Validation details, in the shape of zod's `flattenError` with dotted field paths. */
export interface ValidationDetails {
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
}

/**
 * A failure with a catalogue code. Services throw it; the HTTP and MCP layers turn it into
 * the error body, and the SDK throws it back at its caller. `extra` fields are merged into
 * the body (for example `limit` and `current` of a plan limit).
 */
export class LoupeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ValidationDetails;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, options: { message?: string; details?: ValidationDetails; extra?: Record<string, unknown> } = {}) {
    super(options.message ?? errorCatalogue[code].message);
    this.name = 'LoupeError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = options.details;
    this.extra = options.extra ?? {};
  }

  toBody(): ErrorBody {
    return {
      ...this.extra,
      error: this.message,
      code: this.code,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details?: ValidationDetails;
  [extra: string]: unknown;
}
