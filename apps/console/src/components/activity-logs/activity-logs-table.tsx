import { activityEventLabels, type ActivityEvent, type ActivityLog } from '@latchkey/contracts';
import { CircleCheck, CircleX } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';
import {
  getActivityEventTone,
  getActivityLogApplicationName,
  getActivityLogDetails,
  getActivityLogIpAddress,
  getActivityLogUsername,
  formatActivityTime,
  UNKNOWN_TEXT,
  type ActivityEventTone,
} from './activity-log-display.ts';

const EVENT_TONE_VARIANTS: Record<ActivityEventTone, BadgeVariant> = {
  success: 'success',
  failure: 'warning',
  blocked: 'danger',
};

export function ActivityEventBadge({ event }: { event: ActivityEvent }) {
  return (
    <Badge variant={EVENT_TONE_VARIANTS[getActivityEventTone(event)]}>
      {activityEventLabels[event]}
    </Badge>
  );
}

function StatusIcon({ isSuccess }: { isSuccess: boolean }) {
  const Icon = isSuccess ? CircleCheck : CircleX;
  return (
    <Icon
      role="img"
      aria-label={isSuccess ? 'Success' : 'Failure'}
      className={cn('size-4.5', isSuccess ? 'text-success' : 'text-destructive')}
    />
  );
}

/** The activity log table, newest first as the server sends it. */
export function ActivityLogsTable({ logs }: { logs: readonly ActivityLog[] }) {
  return (
    <Table label="Activity logs">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="w-12">Status</TableHead>
          <TableHead>Event</TableHead>
          <TableHead>User</TableHead>
          <TableHead>Application</TableHead>
          <TableHead>IP Address</TableHead>
          <TableHead>Details</TableHead>
          <TableHead>Time</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {logs.map((log) => {
          const username = getActivityLogUsername(log);
          const ipAddress = getActivityLogIpAddress(log);
          const details = getActivityLogDetails(log);
          const hasMetadata = Object.keys(log.metadata).length > 0;
          return (
            <TableRow key={log.id} data-testid="activity-log-row">
              <TableCell>
                <StatusIcon isSuccess={log.success} />
              </TableCell>
              <TableCell>
                <ActivityEventBadge event={log.event} />
              </TableCell>
              <TableCell
                className={cn(
                  'max-w-40 truncate',
                  username === UNKNOWN_TEXT ? 'text-muted-foreground' : 'font-medium',
                )}
              >
                {username}
              </TableCell>
              <TableCell className="max-w-40 truncate">
                {getActivityLogApplicationName(log)}
              </TableCell>
              <TableCell
                className={cn(
                  'font-mono text-[0.8125rem] whitespace-nowrap',
                  ipAddress === UNKNOWN_TEXT && 'font-sans text-sm text-muted-foreground',
                )}
              >
                {ipAddress}
              </TableCell>
              <TableCell
                className={cn(
                  'max-w-80 truncate text-muted-foreground',
                  log.errorMessage && 'text-foreground',
                )}
                // The cell shows a readable preview; the whole record, as sent, is one hover away.
                title={hasMetadata ? JSON.stringify(log.metadata) : undefined}
              >
                {details}
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                <time dateTime={log.createdAt}>{formatActivityTime(log.createdAt)}</time>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
