import type { Severity } from '@loupe/contract';

/** A catalog category (`structured-data`) as a heading ("Structured data"). */
export function categoryLabel(category: string): string {
  const words = category.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const severityLabels: Record<Severity, { one: string; many: string }> = {
  error: { one: 'error', many: 'errors' },
  warning: { one: 'warning', many: 'warnings' },
  notice: { one: 'notice', many: 'notices' },
};

export const severities: readonly Severity[] = ['error', 'warning', 'notice'];

export function counted(count: number, severity: Severity): string {
  return `${count.toLocaleString('en')} ${count === 1 ? severityLabels[severity].one : severityLabels[severity].many}`;
}

/** A score gain as the report gives it (unrounded), to one decimal: "+2.4". */
export function points(gain: number): string {
  return `+${(Math.round(gain * 10) / 10).toLocaleString('en')}`;
}
