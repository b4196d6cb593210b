import { blacklistTypes, type BlacklistType } from '@latchkey/contracts';
import { Cpu, Mail, Network, UserX, type LucideIcon } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid, type StatLoadState } from '@/components/ui/stat-grid.tsx';
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
  ...load
}: StatLoadState & { counts: Record<BlacklistType, number> | undefined }) {
  return (
    <StatGrid
      headingId="blacklist-counts-heading"
      heading="Active blacklist entries by type"
      errorMessage={BLACKLIST_COUNTS_LOAD_ERROR}
      stats={counts}
      {...load}
      items={(shown) =>
        blacklistTypes.map((type) => ({
          title: BLACKLIST_COUNT_CARD_TITLES[type],
          value: formatStatCount(shown?.[type]),
          description: 'Active entries',
          icon: ICONS[type],
          testId: `blacklist-count-${type}`,
        }))
      }
    />
  );
}
