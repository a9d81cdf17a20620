import { z } from 'zod';
import { freeText } from '../common/free-text.ts';
import { RuleId, Severity } from '../reports/report.ts';

/**
 * Custom rule packs (audit-checks.md §3.2): declarative JSON rules a crawl runs on every URL
 * in a rule's scope. A rule fires when its condition is true; each condition is true, false
 * or unknown (a rendered-DOM selector on a page the crawl did not render, a metric the crawl
 * did not measure), and a rule whose condition is unknown is not applicable: it neither passes
 * nor fails. Regular expressions use RE2 syntax (no backreferences, no lookaround) and run in
 * linear time, so no rule can hang a crawl.
 */

/** Groups nest at most this deep: `when` is level 1, and a group on level 8 holds conditions only. */
export const MAX_CONDITION_DEPTH = 8;
export const MAX_GROUP_CHILDREN = 32;
export const MAX_RULES_PER_PACK = 500;

/**
 * The JSON Schema keyword that marks a named schema as one nesting level of another (its value
 * names it): the same schema but for the depth left, which validation counts and a reader can
 * be told in words (mcp/tool-schemas.ts folds them).
 */
export const NESTING_LEVEL_OF = 'x-nesting-level-of';

export const RuleCategory = z.enum([
  'status',
  'redirects',
  'indexability',
  'titles',
  'descriptions',
  'headings',
  'content',
  'canonical',
  'hreflang',
  'links',
  'images',
  'performance',
  'security',
  'social',
  'structured-data',
  'mobile',
  'accessibility-basic',
  'accessibility',
  'sitemaps',
  'robots',
  'url',
]);
export type RuleCategory = z.infer<typeof RuleCategory>;

export const NumberTest = z
  .discriminatedUnion('op', [
    z.strictObject({ op: z.enum(['lt', 'lte', 'gt', 'gte', 'eq', 'neq']), value: z.number() }),
    z
      .strictObject({
        op: z.enum(['between', 'outside']),
        value: z.tuple([z.number(), z.number()]).describe('[low, high]; between includes both ends, outside is its complement.'),
      })
      .refine((test) => test.value[0] <= test.value[1], { message: 'The low end must not exceed the high end.', path: ['value'] }),
  ])
  .meta({ id: 'RuleNumberTest' });
export type NumberTest = z.infer<typeof NumberTest>;

export const StringTest = z
  .strictObject({
    equals: z.string().max(1000).optional().describe('The whole text equals this.'),
    contains: z.string().min(1).max(1000).optional().describe('The text contains this.'),
    matches: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('An RE2 regular expression found anywhere in the text; anchor it with ^ and $.'),
    caseSensitive: z.boolean().default(false),
  })
  .refine((test) => [test.equals, test.contains, test.matches].filter((v) => v !== undefined).length === 1, {
    message: 'Give exactly one of equals, contains, matches.',
  })
  .meta({ id: 'RuleStringTest' });
export type StringTest = z.infer<typeof StringTest>;

const Quantifier = z
  .enum(['any', 'all', 'none'])
  .default('any')
  .describe('Over the elements the selector matched: any passes, all pass (and there is at least one), none passes.');

export const SelectorTest = z
  .discriminatedUnion('op', [
    z.strictObject({ op: z.literal('exists').describe('At least one element matches.') }),
    z.strictObject({ op: z.literal('absent').describe('No element matches.') }),
    z.strictObject({ op: z.literal('count').describe('The number of matching elements.'), cmp: NumberTest }),
    z.strictObject({ op: z.literal('text').describe('Element text, whitespace collapsed.'), str: StringTest, quantifier: Quantifier }),
    z.strictObject({ op: z.literal('textLength'), cmp: NumberTest, quantifier: Quantifier }),
    z.strictObject({
      op: z.literal('attr'),
      name: z.string().min(1).max(100),
      str: StringTest.optional().describe('Without it, the attribute is present.'),
      quantifier: Quantifier,
    }),
  ])
  .meta({ id: 'RuleSelectorTest' });
export type SelectorTest = z.infer<typeof SelectorTest>;

export const RuleMetric = z.enum([
  'wordCount',
  'responseMs',
  'ttfbMs',
  'bytes',
  'linkCount',
  'internalLinkCount',
  'externalLinkCount',
  'imageCount',
  'depth',
  'inlinks',
  'redirectHops',
  'titleLength',
  'descriptionLength',
]);
export type RuleMetric = z.infer<typeof RuleMetric>;

const StatusClass = z.enum(['2xx', '3xx', '4xx', '5xx', 'failed']);
const label = freeText({ max: 80 }).optional().describe('Shown in {{labels}} when this condition is true.');
const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Not an HTTP header name.');

export const SelectorCondition = z
  .strictObject({
    type: z.literal('selector'),
    selector: z.string().min(1).max(1000).describe('A CSS selector (css-select syntax), checked when the pack is saved.'),
    dom: z
      .enum(['raw', 'rendered'])
      .default('raw')
      .describe(
        'rendered: the DOM after JavaScript ran, in a crawl with the render option; unknown on a page that was not rendered (or failed to).',
      ),
    test: SelectorTest,
    label,
  })
  .meta({ id: 'RuleSelectorCondition' });

export const HeaderCondition = z
  .strictObject({
    type: z.literal('header'),
    name: HeaderName.describe('Case-insensitive.'),
    test: z.discriminatedUnion('op', [
      z.strictObject({ op: z.literal('present') }),
      z.strictObject({ op: z.literal('absent') }),
      z.strictObject({ op: z.literal('value').describe('Repeated headers are joined with ", ".'), str: StringTest }),
    ]),
    label,
  })
  .meta({ id: 'RuleHeaderCondition' });

export const StatusCondition = z
  .strictObject({
    type: z.literal('status'),
    in: z.array(z.number().int().min(100).max(599)).min(1).max(50).optional(),
    class: z.array(StatusClass).min(1).optional().describe('failed: no answer at all.'),
    label,
  })
  .refine((test) => test.in !== undefined || test.class !== undefined, { message: 'Give in, class or both.' })
  .meta({ id: 'RuleStatusCondition', description: 'True when the status is in `in` or in one of the classes.' });

export const TextCondition = z
  .strictObject({
    type: z.literal('text'),
    source: z
      .enum(['visible', 'html', 'title', 'url', 'path'])
      .default('visible')
      .describe('visible: the text a reader sees; path: the decoded URL path. Texts are cut at 1 MB.'),
    str: StringTest,
    label,
  })
  .meta({ id: 'RuleTextCondition' });

export const MetricCondition = z
  .strictObject({ type: z.literal('metric'), metric: RuleMetric, cmp: NumberTest, label })
  .meta({ id: 'RuleMetricCondition', description: 'Unknown when the crawl did not measure the metric for this URL.' });

export type SelectorCondition = z.infer<typeof SelectorCondition>;
export type HeaderCondition = z.infer<typeof HeaderCondition>;
export type StatusCondition = z.infer<typeof StatusCondition>;
export type TextCondition = z.infer<typeof TextCondition>;
export type MetricCondition = z.infer<typeof MetricCondition>;
export type Predicate = SelectorCondition | HeaderCondition | StatusCondition | TextCondition | MetricCondition;

/** A group: exactly one of `all`, `any`, `not`. It has no `type`, which is how it is told from a condition. */
export interface ConditionGroup {
  type?: undefined;
  all?: RuleCondition[];
  any?: RuleCondition[];
  not?: RuleCondition;
  label?: string;
}
export type RuleCondition = Predicate | ConditionGroup;

/** What a client sends: the same with defaults left out. */
export type PredicateInput =
  | z.input<typeof SelectorCondition>
  | z.input<typeof HeaderCondition>
  | z.input<typeof StatusCondition>
  | z.input<typeof TextCondition>
  | z.input<typeof MetricCondition>;
export interface ConditionGroupInput {
  type?: undefined;
  all?: RuleConditionInput[];
  any?: RuleConditionInput[];
  not?: RuleConditionInput;
  label?: string;
}
export type RuleConditionInput = PredicateInput | ConditionGroupInput;
type ConditionSchema = z.ZodType<RuleCondition, RuleConditionInput>;

const predicates = [SelectorCondition, HeaderCondition, StatusCondition, TextCondition, MetricCondition] as const;
const NoType = z.undefined().optional().describe('Absent: a group has no type.');
const tooDeep = z.never({ error: `Groups nest at most ${MAX_CONDITION_DEPTH} levels deep.` }).optional();

/**
 * The condition schema of one nesting level. Levels are separate schemas, so the depth cap is
 * part of validation and a body nested thousands deep stops at level 8 instead of recursing;
 * a group is told from a condition by its missing `type`, so an error inside either points
 * at the exact field rather than at "no branch of the union matched".
 */
function conditionAtLevel(level: number): ConditionSchema {
  const children = level < MAX_CONDITION_DEPTH ? conditionAtLevel(level + 1) : undefined;
  const group = children
    ? z
        .strictObject({
          type: NoType,
          all: z.array(children).min(1).max(MAX_GROUP_CHILDREN).optional().describe('True when every child is true.'),
          any: z.array(children).min(1).max(MAX_GROUP_CHILDREN).optional().describe('True when a child is true.'),
          not: children.optional().describe('True when the child is false.'),
          label,
        })
        .refine((g) => [g.all, g.any, g.not].filter((v) => v !== undefined).length === 1, {
          message: 'Give exactly one of all, any, not.',
        })
    : z.strictObject({ type: NoType, all: tooDeep, any: tooDeep, not: tooDeep, label });
  return z
    .discriminatedUnion('type', [...predicates, group], {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? 'type must be selector, header, status, text or metric; a group has no type and one of all, any, not.'
          : undefined,
    })
    .meta({
      id: level === 1 ? 'RuleCondition' : `RuleConditionLevel${level}`,
      // A listing that has no room for eight copies folds the levels into one recursive schema.
      ...(level === 1 ? {} : { [NESTING_LEVEL_OF]: 'RuleCondition' }),
      description: `A condition (selector, header, status, text, metric) or a group of them (all, any, not), nested at most ${MAX_CONDITION_DEPTH} levels deep. Unknown conditions make a group unknown unless its result is decided without them.`,
    }) as ConditionSchema;
}

export const RuleCondition: ConditionSchema = conditionAtLevel(1);

const Glob = z.string().min(1).max(500);

export const RuleScope = z
  .strictObject({
    include: z
      .array(Glob)
      .max(50)
      .default(['**'])
      .describe(
        'Globs on the decoded path: * stays in a segment, ** crosses them; a glob with ? is matched against path and query; one not starting with / matches at any depth.',
      ),
    exclude: z.array(Glob).max(50).default([]),
    hosts: z
      .array(z.string().min(1).max(253))
      .max(50)
      .optional()
      .describe('Host names, `*.example.com` for subdomains. Default: every host the crawl visits.'),
    contentTypes: z
      .array(z.string().min(1).max(100))
      .max(20)
      .default(['text/html'])
      .describe('Media types (`text/*` and `*/*` work); URLs answering without a Content-Type are not excluded by it.'),
    statuses: z
      .array(z.enum(['2xx', '3xx', '4xx', '5xx', 'failed', 'any']))
      .min(1)
      .default(['2xx']),
    indexableOnly: z.boolean().default(false),
  })
  .meta({ id: 'RuleScope' });
export type RuleScope = z.infer<typeof RuleScope>;

/** A rule fires on a URL in its scope when `when` is true, with one finding carrying evidence. */
export const CustomRule = z
  .strictObject({
    id: RuleId.describe('Unique in the pack, and not the id of a built-in check.'),
    title: freeText({ max: 80 }),
    category: RuleCategory,
    severity: Severity,
    weight: z.number().min(0).max(0.9).optional().describe("Overrides the severity's weight in the health score."),
    scope: RuleScope.prefault({}),
    when: RuleCondition,
    message: freeText({ max: 300 }).describe(
      'Template: {{url}} {{path}} {{status}} {{rule.id}} {{count}} {{match}} {{value}} {{metric.<name>}} {{labels}}.',
    ),
    help: z
      .strictObject({
        why: freeText({ max: 1000, multiline: true }),
        fix: freeText({ max: 1000, multiline: true }),
        url: z.url().max(2048).optional(),
      })
      .optional(),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'CustomRule' });
export type CustomRule = z.infer<typeof CustomRule>;

export const RulePack = z
  .strictObject({
    schema: z.literal('loupe.rules/v1'),
    name: freeText({ max: 100 }),
    rules: z.array(CustomRule).max(MAX_RULES_PER_PACK),
  })
  .meta({ id: 'RulePack' });
export type RulePack = z.infer<typeof RulePack>;
export type RulePackInput = z.input<typeof RulePack>;
