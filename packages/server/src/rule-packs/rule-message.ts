import { RuleMetric } from '@loupe/contract';
import { clip } from './clip.ts';

const VALUE_CHARS = 200;
const MESSAGE_CHARS = 1000;
const simplePlaceholders = ['url', 'path', 'status', 'rule.id', 'count', 'match', 'value', 'labels'] as const;
const metricNames = new Set<string>(RuleMetric.options);

/** What a fired rule's placeholders stand for; absent values render as the empty string. */
export interface MessageValues {
  url: string;
  path: string;
  status: string;
  'rule.id': string;
  count?: number;
  match?: string;
  value?: number;
  labels: string[];
  metrics: Readonly<Partial<Record<string, number>>>;
}

type Part = string | { placeholder: string };

function numberText(value: number | undefined): string {
  return value === undefined ? '' : String(Math.round(value * 1000) / 1000);
}

/**
 * A message template (audit-checks.md §3.2): text with `{{placeholder}}`s and no logic. Built
 * when a pack is saved, so an unknown placeholder is refused then rather than printed later.
 */
export class RuleMessage {
  readonly #parts: Part[];

  private constructor(parts: Part[]) {
    this.#parts = parts;
  }

  /** Throws a TypeError naming the first placeholder it does not know. */
  static compile(template: string): RuleMessage {
    const parts: Part[] = [];
    let rest = template;
    for (let open = rest.indexOf('{{'); open !== -1; open = rest.indexOf('{{')) {
      const close = rest.indexOf('}}', open + 2);
      if (close === -1) throw new TypeError('A {{ is never closed with }}.');
      const name = rest.slice(open + 2, close).trim();
      const known =
        (simplePlaceholders as readonly string[]).includes(name) || (name.startsWith('metric.') && metricNames.has(name.slice(7)));
      if (!known) {
        throw new TypeError(
          `Unknown placeholder {{${name}}}: use ${simplePlaceholders.map((p) => `{{${p}}}`).join(', ')} or {{metric.<name>}} with a metric name.`,
        );
      }
      if (open > 0) parts.push(rest.slice(0, open));
      parts.push({ placeholder: name });
      rest = rest.slice(close + 2);
    }
    if (rest) parts.push(rest);
    return new RuleMessage(parts);
  }

  render(values: MessageValues): string {
    const text = this.#parts
      .map((part) => (typeof part === 'string' ? part : clip(this.#value(part.placeholder, values), VALUE_CHARS)))
      .join('');
    return clip(text, MESSAGE_CHARS);
  }

  #value(name: string, values: MessageValues): string {
    switch (name) {
      case 'count':
        return values.count === undefined ? '' : String(values.count);
      case 'match':
        return values.match ?? '';
      case 'value':
        return numberText(values.value);
      case 'labels':
        return values.labels.join(', ');
      case 'url':
      case 'path':
      case 'status':
      case 'rule.id':
        return values[name];
      default:
        return numberText(values.metrics[name.slice('metric.'.length)]);
    }
  }
}
