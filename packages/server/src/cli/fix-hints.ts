import { type ErrorCode, LoupeError } from '@loupe/contract';

/**
 * The `loupe` command that fixes a refusal, for the errors a CLI user meets before they know
 * the command (the server's own message speaks of API operations).
 */
const fixes: Partial<Record<ErrorCode, string>> = {
  search_index_not_built: 'loupe search <project> <query> --build',
  project_not_crawled: 'loupe crawl <url> --project <project>',
  rule_pack_name_taken: 'loupe rule-packs list',
  preset_name_taken: 'loupe presets list --project <project>',
  schedule_limit_reached: 'loupe schedules list <project>, then loupe schedules delete <project> <scheduleId>',
};

/** The error with the command that fixes it added to its message, when there is one. */
export function withFixHint(error: unknown): unknown {
  if (!(error instanceof LoupeError)) return error;
  const fix = fixes[error.code];
  if (fix === undefined || error.message.includes(fix)) return error;
  const hinted = new LoupeError(error.code, { message: `${error.message} Fix: ${fix}`, details: error.details, extra: error.extra });
  return hinted;
}
