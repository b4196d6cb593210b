import { blacklistTypes, type BlacklistType } from '@latchkey/contracts';
import { Cpu, Mail, Network, UserX, type LucideIcon } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid } from '@/components/ui/stat-grid.tsx';
import { BLACKLIST_COUNT_CARD_TITLES } from './blacklist-display.ts';

const ICONS: Record<BlacklistType, LucideIcon> = {
  ip: Network,
  username: UserX,
  email: Mail,
  hwid: Cpu,
};

export const BLACKLIST_COUNTS_LOAD_ERROR = 'The blacklist counts could not be loaded.';

/** One card per type, counting active entries only (counted by the server). */
export function BlacklistCountCards({
  counts,
  isLoading,
  isError,
  isRetrying,
  onRetry,
}: {
  counts: Record<BlacklistType, number> | undefined;
  isLoading: boolean;
  isError: boolean;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  return (
    <StatGrid
      headingId="blacklist-counts-heading"
      heading="Active blacklist entries by type"
      isLoading={isLoading}
      error={isError ? { message: BLACKLIST_COUNTS_LOAD_ERROR, isRetrying, onRetry } : undefined}
      items={blacklistTypes.map((type) => ({
        title: BLACKLIST_COUNT_CARD_TITLES[type],
        value: formatStatCount(counts?.[type]),
        description: 'Active entries',
        icon: ICONS[type],
        testId: `blacklist-count-${type}`,
      }))}
    />
  );
}
