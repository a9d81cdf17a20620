import { MAX_INSTANCES } from '../audit/finding-instances.ts';
import type { CompiledRule, ConditionNode, LeafFacts, Truth } from './compiled-rule.ts';
import type { RuleSubject } from './rule-subject.ts';
import { SubjectView } from './subject-view.ts';

export interface RuleEvaluation {
  /**
   * fired: the condition is true; passed: false; not-applicable: unknown (say, a metric the
   * crawl did not measure); out-of-scope: the URL is not one the rule looks at.
   */
  outcome: 'fired' | 'passed' | 'not-applicable' | 'out-of-scope';
  /** Set when fired and explained. */
  message?: string;
  /** Set when fired and explained: what was found (up to MAX_INSTANCES, a finding's instances) and how much there was. */
  evidence?: { samples: string[]; total: number };
}

/** One evaluation: leaves' truths are remembered so explaining a firing decides nothing twice. */
class Evaluation {
  readonly view: SubjectView;
  readonly #truths = new Map<ConditionNode, Truth>();

  constructor(view: SubjectView) {
    this.view = view;
  }

  /** Kleene's three-valued logic: a group is unknown only when its unknown children could change it. */
  truth(node: ConditionNode): Truth {
    switch (node.kind) {
      case 'leaf': {
        if (this.#truths.has(node)) return this.#truths.get(node) as Truth;
        const truth = node.truth(this.view);
        this.#truths.set(node, truth);
        return truth;
      }
      case 'not': {
        const truth = this.truth(node.child);
        return truth === null ? null : !truth;
      }
      default: {
        const decisive = node.kind === 'any';
        let unknown = false;
        for (const child of node.byCost) {
          const truth = this.truth(child);
          if (truth === decisive) return decisive;
          if (truth === null) unknown = true;
        }
        return unknown ? null : !decisive;
      }
    }
  }

  /**
   * Walks the nodes that made `node` come out `wanted`: every child of an `all` that is true
   * (or the false ones of one that is false), the true children of an `any`, through a `not`
   * with the wish reversed. Labels come from the true nodes on the way, facts from the leaves.
   */
  explain(
    node: ConditionNode,
    wanted: boolean,
    into: { labels: string[]; facts: { leaf: ConditionNode; facts: LeafFacts; truth: boolean }[] },
  ): void {
    if (this.truth(node) !== wanted) return;
    if (wanted && node.label) into.labels.push(node.label);
    switch (node.kind) {
      case 'leaf':
        into.facts.push({ leaf: node, facts: node.facts(this.view), truth: wanted });
        return;
      case 'not':
        this.explain(node.child, !wanted, into);
        return;
      default:
        for (const child of node.children) this.explain(child, wanted, into);
    }
  }
}

export interface EvaluateOptions {
  /**
   * Whether a firing writes its message and evidence (the default). Locating evidence (every
   * match of an expression, every passing element) costs far more than deciding, so a caller
   * that only tallies outcomes, like a preview past its samples, leaves it out: the outcome
   * is the same either way.
   */
  explain?: boolean;
}

/** Decides one compiled rule on one URL and, when it fires and `explain` is not false, writes its message and evidence. */
export function evaluateRule(rule: CompiledRule, subject: RuleSubject, options: EvaluateOptions = {}): RuleEvaluation {
  const view = SubjectView.of(subject);
  if (!rule.scope.matches(view)) return { outcome: 'out-of-scope' };
  const evaluation = new Evaluation(view);
  const truth = evaluation.truth(rule.when);
  if (truth === null) return { outcome: 'not-applicable' };
  if (!truth) return { outcome: 'passed' };
  if (options.explain === false) return { outcome: 'fired' };

  const found: Parameters<Evaluation['explain']>[2] = { labels: [], facts: [] };
  evaluation.explain(rule.when, true, found);
  // What was found on the page (elements, matches, headers) says more than the status or metric gates beside it.
  const gate = (leaf: ConditionNode) => leaf.kind === 'leaf' && (leaf.type === 'metric' || leaf.type === 'status');
  const ordered = [...found.facts.filter(({ leaf }) => !gate(leaf)), ...found.facts.filter(({ leaf }) => gate(leaf))];
  const samples = [...new Set(ordered.flatMap(({ facts }) => facts.samples))];
  const total = Math.max(
    samples.length,
    found.facts.reduce((sum, { facts }) => sum + facts.total, 0),
  );
  const first = <K extends 'count' | 'match' | 'value'>(key: K, from = found.facts) =>
    from.find(({ facts }) => facts[key] !== undefined)?.facts[key];
  const trueSelectors = found.facts.filter(({ leaf, truth: t }) => t && leaf.kind === 'leaf' && leaf.type === 'selector');
  const message = rule.message.render({
    url: subject.url,
    path: view.target().path,
    status: subject.status === null ? 'failed' : String(subject.status),
    'rule.id': rule.definition.id,
    count: first('count', trueSelectors) ?? first('count'),
    match:
      first(
        'match',
        found.facts.filter(({ truth: t }) => t),
      ) ?? first('match'),
    value: first('value'),
    labels: [...new Set(found.labels)],
    metrics: subject.metrics,
  });
  return { outcome: 'fired', message, evidence: { samples: samples.slice(0, MAX_INSTANCES), total } };
}
