/** A cell: numbers are right-aligned, null and undefined show as a dash. */
export type Cell = string | number | boolean | null | undefined;

function show(cell: Cell): string {
  if (cell === null || cell === undefined || cell === '') return '-';
  return String(cell).replace(/\s+/g, ' ');
}

/**
 * Rows under upper-case headings, columns two spaces apart, for people reading a terminal
 * (scripts take --json). A column of numbers is right-aligned.
 */
export function formatTable(headings: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = [headings.map((heading) => heading.toUpperCase()), ...rows.map((row) => row.map(show))];
  const widths = headings.map((_, column) => Math.max(...text.map((row) => (row[column] ?? '').length)));
  const numeric = headings.map(
    (_, column) =>
      rows.some((row) => typeof row[column] === 'number') && rows.every((row) => typeof row[column] === 'number' || row[column] == null),
  );
  return text
    .map((row) =>
      row
        .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One record as `label  value` lines, labels aligned. */
export function formatFields(fields: readonly (readonly [string, Cell])[]): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${label.padEnd(width)}  ${show(value)}`).join('\n');
}

/** Bytes for people: 1.2 MB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
