import type { ComponentProps, Key, ReactNode } from 'react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';

/** Attributes of a row or cell, `data-*` markers included (tests and styles find rows by them). */
type WithDataAttributes<Props> = Props & {
  [dataAttribute: `data-${string}`]: string | boolean | undefined;
};
export type DataTableRowProps = WithDataAttributes<ComponentProps<'tr'>>;
export type DataTableCellProps = WithDataAttributes<ComponentProps<'td'>>;

/** One column of a DataTable: its heading and how each row fills its cell. */
export interface DataTableColumn<Row> {
  /** The heading; also the column's key, so headings are unique within a table. */
  header: string;
  /**
   * Said to screen readers only, where a visible heading would add nothing (a column of icon
   * buttons that name themselves).
   */
  isHeaderHidden?: boolean;
  /** Drawn in the heading instead of `header` (a select-all checkbox, which names itself). */
  headerContent?: ReactNode;
  /** Kept at the right edge while the rest scrolls, so a row's actions are reachable on a phone. */
  isPinned?: boolean;
  headerClassName?: string;
  cellClassName?: string;
  /** What a cell carries beside its content and that depends on the row (a title, a marker). */
  cellProps?: (row: Row) => DataTableCellProps;
  cell: (row: Row) => ReactNode;
}

/**
 * Everything about a table but its rows: what its scroll region is called, its columns, and
 * how a row is told apart. Features build one (with their row actions) and hand it to
 * DataTable or PagedDataTable, so every table is drawn by the same markup.
 */
export interface DataTableDefinition<Row> {
  /** Names the table's scroll region for screen readers. */
  label: string;
  columns: readonly DataTableColumn<Row>[];
  getRowKey: (row: Row) => Key;
  getRowProps?: (row: Row) => DataTableRowProps;
  /** The search box above the table when its list is searched: what it is called and matches. */
  searchBox?: { label: string; placeholder: string };
}

/** The rows of `table`, one cell per column, in the console's scrolling table. */
export function DataTable<Row>({
  table,
  rows,
}: {
  table: DataTableDefinition<Row>;
  rows: readonly Row[];
}) {
  const { label, columns, getRowKey, getRowProps } = table;
  return (
    <Table label={label}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {columns.map((column) => (
            <TableHead
              key={column.header}
              pinned={column.isPinned}
              className={column.headerClassName}
            >
              {column.headerContent ??
                (column.isHeaderHidden ? (
                  <span className="sr-only">{column.header}</span>
                ) : (
                  column.header
                ))}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={getRowKey(row)} {...getRowProps?.(row)}>
            {columns.map((column) => {
              const { className, ...cellProps } = column.cellProps?.(row) ?? {};
              return (
                <TableCell
                  key={column.header}
                  pinned={column.isPinned}
                  className={cn(column.cellClassName, className)}
                  {...cellProps}
                >
                  {column.cell(row)}
                </TableCell>
              );
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The column of a row's action buttons, pinned to the right edge. Its heading is for screen
 * readers only unless `isHeaderShown`: the buttons name themselves.
 */
export function rowActionsColumn<Row>(
  cell: (row: Row) => ReactNode,
  { isHeaderShown = false, cellClassName = 'text-right' } = {},
): DataTableColumn<Row> {
  return {
    header: 'Actions',
    isHeaderHidden: !isHeaderShown,
    isPinned: true,
    headerClassName: 'text-right',
    cellClassName,
    cell,
  };
}
