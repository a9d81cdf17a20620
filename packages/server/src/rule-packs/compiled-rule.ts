import type { CustomRule, Predicate } from '@loupe/contract';
import type { Element } from 'domhandler';
import type { RuleMessage } from './rule-message.ts';
import type { RuleScopeMatcher } from './rule-scope-matcher.ts';
import type { SubjectView } from './subject-view.ts';

/** A compiled CSS selector (css-select's compiled query). */
export type ElementQuery = (element: Element) => boolean;

/** A condition's value on one URL: true, false, or null for unknown. */
export type Truth = boolean | null;

/** What a condition observed, for a finding's evidence and message. */
export interface LeafFacts {
  samples: string[];
  total: number;
  /** `{{match}}`: the matched substring or attribute value. */
  match?: string;
  /** `{{count}}`: the number of elements a selector matched. */
  count?: number;
  /** `{{value}}`: a metric's value. */
  value?: number;
}

export interface ConditionLeaf {
  kind: 'leaf';
  type: Predicate['type'];
  label?: string;
  /** A rough price, so groups look at cheap conditions (headers, metrics) before ones that parse the DOM. */
  cost: number;
  truth(view: SubjectView): Truth;
  facts(view: SubjectView): LeafFacts;
}

export interface ConditionBranch {
  kind: 'all' | 'any';
  label?: string;
  cost: number;
  /** In the order written: evidence and labels follow it. */
  children: ConditionNode[];
  /** Cheapest first: the order the truth is worked out in. */
  byCost: ConditionNode[];
}

export interface ConditionNegation {
  kind: 'not';
  label?: string;
  cost: number;
  child: ConditionNode;
}

export type ConditionNode = ConditionLeaf | ConditionBranch | ConditionNegation;

/** A rule ready to run: selectors, expressions, globs and its message compiled once. */
export interface CompiledRule {
  definition: CustomRule;
  scope: RuleScopeMatcher;
  when: ConditionNode;
  message: RuleMessage;
  /** Has a `dom: "rendered"` selector condition: pages are read with their rendered DOM only for such rules. */
  readsRenderedDom: boolean;
}

export interface CompiledRulePack {
  name: string;
  /** The enabled rules, in pack order. */
  rules: CompiledRule[];
  /** Every rule of the pack, disabled ones included. */
  ruleCount: number;
}
