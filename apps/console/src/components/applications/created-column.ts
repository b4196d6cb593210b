import type { DataTableColumn } from '@/components/ui/data-table.tsx';
import { formatDateTime, formatShortDate } from './application-display.ts';

/** A table's Created column: the short date, and the full date and time on hover. */
export function createdColumn<Row extends { createdAt: string }>(): DataTableColumn<Row> {
  return {
    header: 'Created',
    cellClassName: 'whitespace-nowrap text-muted-foreground',
    cellProps: (row) => ({ title: formatDateTime(row.createdAt) }),
    cell: (row) => formatShortDate(row.createdAt),
  };
}
