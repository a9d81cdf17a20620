/**
 * The registry's descriptions are written for the REST API too; an agent calling a tool sends
 * no headers, no multipart body and follows no links. These rewrites say the same in tool
 * terms, in this one place; a test fails when a description keeps REST-only words.
 */
const rewrites: readonly [RegExp, string][] = [
  [/`multipart\/form-data` with the file in `file`/g, 'a file sent as `upload`'],
  [/\bor JSON `\{ url, path\? \}`/g, 'or `body` `{ url, path? }`'],
  [/\(or stream \/crawls\/\{id\}\/events\)/g, '(or stream_crawl_events)'],
  [/\bServer-sent events of\b/g, 'The events of'],
  [
    /Needs no x-service-team header: call it first to find the id to send there\./g,
    'Call it first to find the workspaceId the workspace tools take.',
  ],
  [/Needs no x-service-team header\./g, 'Acts in no workspace.'],
  [/ with Retry-After while one runs\)/g, ' while one runs: call again once it ends)'],
];

/** REST-only words no tool description may keep: transport, headers and links. */
export const restOnlyWords =
  /multipart|rel="?next|x-service-team|x-csrf-token|retry-after|www-authenticate|content-disposition|server-sent|\/api\/v1\/(?!shared)|Link header/i;

export function inAgentWords(text: string): string {
  return rewrites.reduce((rewritten, [from, to]) => rewritten.replace(from, to), text);
}
