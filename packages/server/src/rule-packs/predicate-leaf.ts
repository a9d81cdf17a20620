import type { Predicate, SelectorTest } from '@loupe/contract';
import type { Element } from 'domhandler';
import { MAX_INSTANCES } from '../audit/finding-instances.ts';
import { clip } from './clip.ts';
import type { ConditionLeaf, ElementQuery, LeafFacts, Truth } from './compiled-rule.ts';
import { passesNumberTest } from './number-test.ts';
import type { StringMatcher } from './string-matcher.ts';
import type { SubjectView } from './subject-view.ts';

/** Elements and matches described for a finding's instances (the report keeps them all, up to its bound). */
const SAMPLES = MAX_INSTANCES;
const TEXT_SAMPLE_CHARS = 120;

function describe(element: Element): string {
  const attributes = Object.entries(element.attribs)
    .slice(0, 3)
    .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${clip(value, 60)}"`))
    .join('');
  return clip(`<${element.name}${attributes}>`, TEXT_SAMPLE_CHARS);
}

function quantified(elements: Element[], quantifier: 'any' | 'all' | 'none', passes: (element: Element) => boolean): boolean {
  if (quantifier === 'any') return elements.some(passes);
  if (quantifier === 'none') return !elements.some(passes);
  return elements.length > 0 && elements.every(passes);
}

function selectorLeaf(
  test: SelectorTest,
  dom: 'raw' | 'rendered',
  query: ElementQuery,
  matcher: StringMatcher | undefined,
): Pick<ConditionLeaf, 'truth' | 'facts'> {
  // The parser lower-cases attribute names.
  const attribute = test.op === 'attr' ? test.name.toLowerCase() : '';
  const passes =
    (view: SubjectView) =>
    (element: Element): boolean => {
      switch (test.op) {
        case 'text': {
          const text = view.elementText(element);
          return (matcher as StringMatcher).test(text, () => text.toLowerCase());
        }
        case 'textLength':
          return passesNumberTest(test.cmp, view.elementText(element).length);
        case 'attr': {
          const value = element.attribs[attribute];
          return value !== undefined && (matcher === undefined || matcher.test(value, () => value.toLowerCase()));
        }
        default:
          return true;
      }
    };
  // Null (unknown) when the page has no such DOM: the rendered one exists only if the crawl rendered the page.
  const elementsOf = (view: SubjectView) => view.select(query, dom);
  return {
    truth(view) {
      const elements = elementsOf(view);
      if (elements === null) return null;
      switch (test.op) {
        case 'exists':
          return elements.length > 0;
        case 'absent':
          return elements.length === 0;
        case 'count':
          return passesNumberTest(test.cmp, elements.length);
        default:
          return quantified(elements, test.quantifier, passes(view));
      }
    },
    facts(view) {
      const elements = elementsOf(view) ?? [];
      const count = elements.length;
      if (test.op === 'exists' || test.op === 'absent' || test.op === 'count') {
        return { samples: elements.slice(0, SAMPLES).map(describe), total: count, count };
      }
      const passing = elements.filter(passes(view));
      const facts: LeafFacts = { samples: [], total: passing.length, count };
      for (const element of passing.slice(0, SAMPLES)) {
        if (test.op === 'attr') {
          facts.match ??= element.attribs[attribute];
          facts.samples.push(describe(element));
          continue;
        }
        const text = view.elementText(element);
        const found = test.op === 'text' ? (matcher as StringMatcher).find(text, () => text.toLowerCase(), 1).samples[0] : undefined;
        facts.match ??= found ?? clip(text, TEXT_SAMPLE_CHARS);
        facts.samples.push(
          test.op === 'textLength' ? `${clip(text, TEXT_SAMPLE_CHARS)} (${text.length} characters)` : clip(text, TEXT_SAMPLE_CHARS),
        );
      }
      return facts;
    },
  };
}

/** Relative prices of deciding each kind of condition, for ordering the children of a group. */
const costs = { metric: 1, status: 1, header: 1, text: 10, selector: 50 } as const;

/**
 * Turns one predicate into a leaf that decides it on a subject, given its selector and
 * string test already compiled (and checked) by the pack compiler.
 */
export function predicateLeaf(predicate: Predicate, compiled: { query?: ElementQuery; matcher?: StringMatcher }): ConditionLeaf {
  const base = { kind: 'leaf' as const, type: predicate.type, label: predicate.label };
  switch (predicate.type) {
    case 'selector':
      return {
        ...base,
        cost: costs.selector,
        ...selectorLeaf(predicate.test, predicate.dom, compiled.query as ElementQuery, compiled.matcher),
      };
    case 'header': {
      const name = predicate.name.toLowerCase();
      const test = predicate.test;
      return {
        ...base,
        cost: costs.header,
        truth(view): Truth {
          const value = view.subject.headers[name];
          if (test.op === 'present') return value !== undefined;
          if (test.op === 'absent') return value === undefined;
          return value !== undefined && (compiled.matcher as StringMatcher).test(value, () => value.toLowerCase());
        },
        facts(view) {
          const value = view.subject.headers[name];
          if (value === undefined) return { samples: [], total: 0 };
          const match =
            test.op === 'value' ? (compiled.matcher as StringMatcher).find(value, () => value.toLowerCase(), 1).samples[0] : value;
          return { samples: [clip(`${name}: ${value}`, TEXT_SAMPLE_CHARS)], total: 1, match };
        },
      };
    }
    case 'status': {
      const codes = new Set(predicate.in ?? []);
      const classes = new Set<string>(predicate.class ?? []);
      return {
        ...base,
        cost: costs.status,
        truth(view) {
          const status = view.subject.status;
          if (status === null) return classes.has('failed');
          return codes.has(status) || classes.has(`${Math.floor(status / 100)}xx`);
        },
        facts(view) {
          const status = view.subject.status;
          return { samples: [status === null ? 'no answer' : `status ${status}`], total: 1 };
        },
      };
    }
    case 'text': {
      const source = predicate.source;
      const matcher = compiled.matcher as StringMatcher;
      return {
        ...base,
        cost: source === 'visible' || source === 'html' ? costs.text : costs.header,
        truth(view) {
          const text = view.text(source);
          return text === null ? null : matcher.test(text, () => view.lowered(source) as string);
        },
        facts(view) {
          const text = view.text(source);
          if (text === null) return { samples: [], total: 0 };
          const found = matcher.find(text, () => view.lowered(source) as string, SAMPLES);
          return { ...found, match: found.samples[0] };
        },
      };
    }
    case 'metric': {
      const { metric, cmp } = predicate;
      return {
        ...base,
        cost: costs.metric,
        truth(view) {
          const value = view.subject.metrics[metric];
          return value === undefined ? null : passesNumberTest(cmp, value);
        },
        facts(view) {
          const value = view.subject.metrics[metric];
          return value === undefined ? { samples: [], total: 0 } : { samples: [`${metric} = ${value}`], total: 1, value };
        },
      };
    }
  }
}
