import { LOGIN_SUCCESS_EVENT, type ActivityEvent, type ActivityLog } from '@latchkey/contracts';
import type { ActivityLogQuery } from '@/hooks/use-activity-logs.ts';
import { formatMetadataText, truncateText } from './activity-log-metadata-text.ts';
import { onFirstUse } from '@/lib/on-first-use.ts';

export const UNKNOWN_TEXT = 'Unknown';

/** The User column: the end user as they are now, else the name the client sent. */
export function getActivityLogUsername(log: Pick<ActivityLog, 'appUser' | 'username'>): string {
  return log.appUser?.username || log.username || UNKNOWN_TEXT;
}

/** The Application column: the name, or 'App {id}'. */
export function getActivityLogApplicationName(
  log: Pick<ActivityLog, 'application' | 'applicationId'>,
): string {
  return log.application?.name || `App ${log.applicationId}`;
}

export function getActivityLogIpAddress(log: Pick<ActivityLog, 'ipAddress'>): string {
  return log.ipAddress || UNKNOWN_TEXT;
}

/** The Details column previews 50 characters of the metadata. */
export const DETAILS_PREVIEW_LENGTH = 50;

/** The Details column's text when there is neither an error nor metadata with a value. */
export const NO_DETAILS_TEXT = 'Success';

/**
 * The Details column: the error message; else the first 50 characters of the metadata as text
 * a person reads (see formatMetadataText), with "…" when cut; else 'Success'. Metadata with
 * no value in it (an empty object, only nulls) counts as none.
 */
export function getActivityLogDetails(log: Pick<ActivityLog, 'errorMessage' | 'metadata'>): string {
  if (log.errorMessage) return log.errorMessage;
  const metadataText = formatMetadataText(log.metadata);
  if (metadataText) return truncateText(metadataText, DETAILS_PREVIEW_LENGTH);
  return NO_DETAILS_TEXT;
}

/** The select value for "no filter" (Radix reserves ''). */
export const ALL_FILTER_VALUE = 'all';

export interface ActivityLogFilters {
  /** Sent to the server as ?applicationId=; null means every application. */
  applicationId: number | null;
  event: ActivityEvent | typeof ALL_FILTER_VALUE;
  search: string;
}

export const NO_ACTIVITY_LOG_FILTERS: ActivityLogFilters = {
  applicationId: null,
  event: ALL_FILTER_VALUE,
  search: '',
};

export function hasActiveFilters(filters: ActivityLogFilters): boolean {
  return (
    filters.applicationId !== null ||
    filters.event !== ALL_FILTER_VALUE ||
    filters.search.trim() !== ''
  );
}

/** What the server is asked for: the filters with "all" as null and the search as typed. */
export function toActivityLogQuery(filters: ActivityLogFilters): ActivityLogQuery {
  return {
    applicationId: filters.applicationId,
    event: filters.event === ALL_FILTER_VALUE ? null : filters.event,
    search: filters.search.trim(),
  };
}

export type ActivityEventTone = 'success' | 'blocked' | 'failure';

/**
 * The event badge's colour: green for a way in (a new device bound, an offline licence issued,
 * an e-mail address confirmed), red for a blacklist block, amber otherwise (a released device
 * included: worth a look).
 */
export function getActivityEventTone(event: ActivityEvent): ActivityEventTone {
  if (
    event === LOGIN_SUCCESS_EVENT ||
    event === 'user_register' ||
    event === 'device_added' ||
    event === 'license_checkout' ||
    event === 'email_verified'
  ) {
    return 'success';
  }
  return event.startsWith('login_blocked_') ? 'blocked' : 'failure';
}

const activityTimeFormat = onFirstUse(
  () => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }),
);

/** Events come in bursts, so the Time column shows seconds, e.g. "Mar 14, 2025, 4:05:09 PM". */
export function formatActivityTime(isoDateTime: string): string {
  return activityTimeFormat().format(new Date(isoDateTime));
}
