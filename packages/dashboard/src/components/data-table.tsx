import type { ReactNode } from 'react';

/** A column's heading: its text, or the text with a class (`number`), or text for screen readers only. */
export type Column = string | { label: string; className?: string; visuallyHidden?: boolean };

/** The column of a row's buttons: blank on screen, since the buttons name themselves. */
export const actionsColumn: Column = { label: 'Actions', visuallyHidden: true };

export interface DataTableProps<T> {
  /** The table's name for screen readers, where the heading above it does not say it. */
  caption?: string;
  className?: string;
  /** `false` leaves a column out, e.g. the actions of a user without the right to act. */
  columns: readonly (Column | false)[];
  items: readonly T[];
  /** An item's `<tr>`, with its key; the row renders its own cells, so a cell can be a `<th scope="row">`. */
  row: (item: T) => ReactNode;
}

/** A table of items, one row each, that scrolls sideways in its box on a narrow screen. */
export function DataTable<T>({ caption, className, columns, items, row }: DataTableProps<T>) {
  return (
    <div className="table-scroll">
      <table className={className}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => column && <ColumnHeading key={typeof column === 'string' ? column : column.label} column={column} />)}
          </tr>
        </thead>
        <tbody>{items.map((item) => row(item))}</tbody>
      </table>
    </div>
  );
}

function ColumnHeading({ column }: { column: Column }) {
  const { label, className, visuallyHidden = false } = typeof column === 'string' ? { label: column } : column;
  return (
    <th scope="col" className={className}>
      {visuallyHidden ? <span className="visually-hidden">{label}</span> : label}
    </th>
  );
}
