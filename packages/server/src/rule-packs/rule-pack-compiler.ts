import type { Predicate, RuleCondition, RulePack, StringTest } from '@loupe/contract';
import { compile } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import type { RE2JS } from 're2js';
import { CompileProblems, type FieldPath } from './compile-problems.ts';
import type { CompiledRule, CompiledRulePack, ConditionNode, ElementQuery } from './compiled-rule.ts';
import { predicateLeaf } from './predicate-leaf.ts';
import { RuleMessage } from './rule-message.ts';
import { RuleScopeMatcher } from './rule-scope-matcher.ts';
import { StringMatcher } from './string-matcher.ts';

interface Context {
  problems: CompileProblems;
  /** One compiled selector and expression per distinct text, so a page answers each once. */
  selectors: Map<string, ElementQuery | Error>;
  regexes: Map<string, RE2JS>;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stringMatcher(test: StringTest, path: FieldPath, context: Context): StringMatcher | undefined {
  try {
    return new StringMatcher(test, context.regexes);
  } catch (error) {
    context.problems.add([...path, 'matches'], `Not an RE2 regular expression: ${errorText(error)}`);
    return undefined;
  }
}

function selectorQuery(selector: string, path: FieldPath, context: Context): ElementQuery | undefined {
  if (!context.selectors.has(selector)) {
    try {
      context.selectors.set(selector, compile<AnyNode, Element>(selector) as ElementQuery);
    } catch (error) {
      context.selectors.set(selector, error instanceof Error ? error : new Error(String(error)));
    }
  }
  const query = context.selectors.get(selector);
  if (typeof query === 'function') return query;
  context.problems.add([...path, 'selector'], `Not a CSS selector that can be run: ${query?.message}`);
  return undefined;
}

function compilePredicate(predicate: Predicate, path: FieldPath, context: Context): ConditionNode {
  let query: ElementQuery | undefined;
  let test: StringTest | undefined;
  let testPath: FieldPath = path;
  if (predicate.type === 'selector') {
    query = selectorQuery(predicate.selector, path, context);
    if (predicate.test.op === 'text' || predicate.test.op === 'attr') test = predicate.test.str;
    testPath = [...path, 'test', 'str'];
  } else if (predicate.type === 'header' && predicate.test.op === 'value') {
    test = predicate.test.str;
    testPath = [...path, 'test', 'str'];
  } else if (predicate.type === 'text') {
    test = predicate.str;
    testPath = [...path, 'str'];
  }
  const matcher = test ? stringMatcher(test, testPath, context) : undefined;
  return predicateLeaf(predicate, { query, matcher });
}

function compileCondition(condition: RuleCondition, path: FieldPath, context: Context): ConditionNode {
  if (condition.type !== undefined) return compilePredicate(condition, path, context);
  const label = condition.label;
  if (condition.not !== undefined) {
    const child = compileCondition(condition.not, [...path, 'not'], context);
    return { kind: 'not', label, cost: child.cost, child };
  }
  const kind = condition.all !== undefined ? 'all' : 'any';
  const children = (condition.all ?? condition.any ?? []).map((child, i) => compileCondition(child, [...path, kind, i], context));
  return {
    kind,
    label,
    cost: children.reduce((sum, child) => sum + child.cost, 0),
    children,
    byCost: [...children].sort((a, b) => a.cost - b.cost),
  };
}

/** Whether a condition reads the rendered DOM anywhere in its tree. */
function readsRenderedDom(condition: RuleCondition): boolean {
  if (condition.type !== undefined) return condition.type === 'selector' && condition.dom === 'rendered';
  if (condition.not !== undefined) return readsRenderedDom(condition.not);
  return (condition.all ?? condition.any ?? []).some(readsRenderedDom);
}

/**
 * Compiles a pack that passed its schema: every CSS selector (css-select), RE2 expression
 * (re2js, case-insensitive unless the test says otherwise), scope glob and message template,
 * once. Also checks what the schema cannot: rule ids unique in the pack and, with `isBuiltIn`,
 * not those of built-in checks. Every problem is reported, each at its field's dotted path
 * under `prefix` (`pack` in a request body), as a 400 validation_failed. The catalog is not
 * imported here: rule threads compile packs, and it would load axe-core into each of them.
 */
export function compileRulePack(
  pack: RulePack,
  options: { prefix?: FieldPath; isBuiltIn?: (id: string) => boolean } = {},
): CompiledRulePack {
  const context: Context = { problems: new CompileProblems(options.prefix), selectors: new Map(), regexes: new Map() };
  const firstIndex = new Map<string, number>();
  const rules: CompiledRule[] = [];
  pack.rules.forEach((rule, i) => {
    const path = ['rules', i];
    const earlier = firstIndex.get(rule.id);
    if (earlier !== undefined) context.problems.add([...path, 'id'], `Rule id ${rule.id} is already used by rules.${earlier}.`);
    else firstIndex.set(rule.id, i);
    if (options.isBuiltIn?.(rule.id))
      context.problems.add([...path, 'id'], `${rule.id} is the id of a built-in check; choose another name.`);

    const scope = RuleScopeMatcher.compile(rule.scope, (at, message) => context.problems.add([...path, 'scope', ...at], message));
    const when = compileCondition(rule.when, [...path, 'when'], context);
    let message: RuleMessage | undefined;
    try {
      message = RuleMessage.compile(rule.message);
    } catch (error) {
      context.problems.add([...path, 'message'], errorText(error));
    }
    if (rule.enabled && message) rules.push({ definition: rule, scope, when, message, readsRenderedDom: readsRenderedDom(rule.when) });
  });
  context.problems.throwIfAny();
  return { name: pack.name, rules, ruleCount: pack.rules.length };
}
