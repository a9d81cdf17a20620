import type { CrawlDefaults } from '@loupe/contract';
import { fieldMessages } from '../api/field-messages.ts';
import { FieldFrame } from '../components/field-frame.tsx';
import { boundsOf, defaultOf, descriptionOf, YES_NO_OPTIONS } from './crawl-options.ts';

export interface CrawlOptionsFieldsProps {
  /** Put before each control's name: `crawlDefaults.` in a project's form, nothing in a crawl's. */
  prefix?: string;
  /** The values the controls start with; a missing one is left blank (its default applies). */
  initial?: CrawlDefaults;
  /** The plan's pages per crawl, for the max pages placeholder. */
  planCap?: number;
  /** What a blank control means, in words: "server default" or "project default". */
  blankMeans?: string;
  error?: unknown;
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '' : String(value));

/**
 * The crawl options of StartCrawl (DESIGN.md §8) as controls: the common ones in view, the
 * rest under "More options". A blank control sends nothing, so the default applies.
 */
export function CrawlOptionsFields({ prefix = '', initial = {}, planCap, blankMeans = 'default', error }: CrawlOptionsFieldsProps) {
  const name = (option: string) => prefix + option;
  const number = (option: 'maxPages' | 'maxDepth' | 'concurrency' | 'delayMs', label: string, placeholder: string) => {
    const { min, max } = boundsOf(option);
    return (
      <FieldFrame label={label} name={name(option)} error={error} hint={descriptionOf(option)}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            name={name(option)}
            type="number"
            inputMode="numeric"
            min={min}
            max={max}
            step={1}
            placeholder={placeholder}
            defaultValue={initial[option] ?? ''}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
          />
        )}
      </FieldFrame>
    );
  };
  const toggle = (option: (typeof YES_NO_OPTIONS)[number], label: string) => (
    <FieldFrame label={label} name={name(option)} error={error} hint={descriptionOf(option)}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={name(option)}
          defaultValue={yesNo(initial[option])}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        >
          <option value="">{`${blankMeans[0]?.toUpperCase()}${blankMeans.slice(1)} (${defaultOf(option) ? 'yes' : 'no'})`}</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      )}
    </FieldFrame>
  );
  const list = (option: 'include' | 'exclude', label: string, placeholder: string) => (
    <FieldFrame label={label} name={name(option)} error={error} hint={`${descriptionOf(option) ?? ''} One per line.`}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          name={name(option)}
          rows={2}
          placeholder={placeholder}
          defaultValue={(initial[option] ?? []).join('\n')}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        />
      )}
    </FieldFrame>
  );

  const advanced = ['maxDepth', 'concurrency', 'delayMs', ...YES_NO_OPTIONS, 'include', 'exclude', 'userAgent', 'headers'];
  // An error about a control under "More options" must not stay folded away.
  const advancedError = advanced.some((option) => fieldMessages(error, name(option)).length > 0);

  return (
    <div className="crawl-options">
      <FieldFrame label="What to audit" name={name('mode')} error={error} hint="A URL audit checks the start URL alone, for one credit.">
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name={name('mode')}
            defaultValue={initial.mode ?? ''}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
          >
            <option value="">{`${blankMeans[0]?.toUpperCase()}${blankMeans.slice(1)} (${defaultOf('mode') === 'page' ? 'one page' : 'the whole site'})`}</option>
            <option value="site">The whole site</option>
            <option value="page">One page (a URL audit)</option>
          </select>
        )}
      </FieldFrame>
      {number('maxPages', 'Max pages', planCap === undefined ? 'Plan cap' : `Plan cap (${planCap.toLocaleString('en')})`)}
      <details className="more-options" open={advancedError || undefined}>
        <summary>More options</summary>
        <div className="crawl-options-grid">
          {number('maxDepth', 'Max depth (clicks)', 'Unlimited')}
          {number('concurrency', 'Requests at once', String(defaultOf('concurrency')))}
          {number('delayMs', 'Delay between requests (ms)', String(defaultOf('delayMs')))}
          {toggle('respectRobots', 'Follow robots.txt')}
          {toggle('sitemaps', 'Read the sitemaps')}
          {toggle('checkExternalLinks', 'Check links to other sites')}
          {list('include', 'Only paths matching', '/docs/**')}
          {list('exclude', 'Never paths matching', '/admin/**')}
          <FieldFrame label="User agent" name={name('userAgent')} error={error}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                name={name('userAgent')}
                type="text"
                placeholder="Loupe's own"
                defaultValue={initial.userAgent ?? ''}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
              />
            )}
          </FieldFrame>
          <FieldFrame
            label="Extra request headers"
            name={name('headers')}
            error={error}
            hint={`${descriptionOf('headers') ?? ''} One "Name: value" per line.`}
          >
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                name={name('headers')}
                rows={2}
                placeholder="Authorization: Bearer …"
                defaultValue={Object.entries(initial.headers ?? {})
                  .map(([header, value]) => `${header}: ${value}`)
                  .join('\n')}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
              />
            )}
          </FieldFrame>
        </div>
      </details>
    </div>
  );
}
