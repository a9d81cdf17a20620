import type { RuleScope } from '@loupe/contract';
import type { FieldPath } from './compile-problems.ts';
import { ScopeGlob } from './scope-glob.ts';
import type { SubjectView } from './subject-view.ts';

function statusClass(status: number | null): string {
  if (status === null) return 'failed';
  return `${Math.floor(status / 100)}xx`;
}

function mediaTypeMatches(pattern: string, mediaType: string): boolean {
  if (pattern === '*' || pattern === '*/*') return true;
  if (pattern.endsWith('/*')) return mediaType.startsWith(pattern.slice(0, -1));
  return mediaType === pattern;
}

function hostMatches(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
}

/**
 * Whether a URL is in a rule's scope: its status class, content type, host, indexability
 * and path. An empty include list, like the crawl's, means every path.
 */
export class RuleScopeMatcher {
  readonly #scope: RuleScope;
  readonly #include: ScopeGlob[];
  readonly #exclude: ScopeGlob[];
  readonly #hosts: string[] | undefined;
  readonly #contentTypes: string[];

  private constructor(scope: RuleScope, include: ScopeGlob[], exclude: ScopeGlob[]) {
    this.#scope = scope;
    this.#include = include;
    this.#exclude = exclude;
    this.#hosts = scope.hosts?.map((host) => host.toLowerCase().replace(/\.$/, ''));
    this.#contentTypes = scope.contentTypes.map((type) => type.toLowerCase().trim());
  }

  /** Reports each glob that does not compile to `problem`, at its path under the scope. */
  static compile(scope: RuleScope, problem: (path: FieldPath, message: string) => void): RuleScopeMatcher {
    const globs = (list: 'include' | 'exclude') =>
      scope[list].flatMap((glob, i) => {
        try {
          return [new ScopeGlob(glob)];
        } catch (error) {
          problem([list, i], `Not a glob this service can match: ${(error as Error).message}`);
          return [];
        }
      });
    return new RuleScopeMatcher(scope, globs('include'), globs('exclude'));
  }

  matches(view: SubjectView): boolean {
    const subject = view.subject;
    const statuses = this.#scope.statuses;
    if (!statuses.includes('any') && !(statuses as string[]).includes(statusClass(subject.status))) return false;
    if (this.#scope.indexableOnly && !subject.indexable) return false;
    const mediaType = subject.contentType?.split(';')[0]?.trim().toLowerCase();
    if (mediaType && !this.#contentTypes.some((pattern) => mediaTypeMatches(pattern, mediaType))) return false;
    if (this.#hosts) {
      let host: string;
      try {
        host = new URL(subject.url).hostname.toLowerCase().replace(/\.$/, '');
      } catch {
        return false;
      }
      if (!this.#hosts.some((pattern) => hostMatches(pattern, host))) return false;
    }
    const target = view.target();
    if (this.#include.length > 0 && !this.#include.some((glob) => glob.test(target))) return false;
    return !this.#exclude.some((glob) => glob.test(target));
  }
}
