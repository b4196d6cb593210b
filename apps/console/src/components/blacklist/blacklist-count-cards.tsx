import { blacklistTypes, type BlacklistEntry, type BlacklistType } from '@latchkey/contracts';
import { Cpu, Mail, Network, UserX, type LucideIcon } from 'lucide-react';
import { StatCard } from '@/components/home/stat-card.tsx';
import { BLACKLIST_COUNT_CARD_TITLES, countActiveEntries } from './blacklist-display.ts';

const ICONS: Record<BlacklistType, LucideIcon> = {
  ip: Network,
  username: UserX,
  email: Mail,
  hwid: Cpu,
};

const countFormat = new Intl.NumberFormat('en-US');

/** Spec doc 2 §2: one card per type, counting active entries only. */
export function BlacklistCountCards({
  entries,
  isLoading,
}: {
  entries: readonly BlacklistEntry[] | undefined;
  isLoading: boolean;
}) {
  const counts = entries ? countActiveEntries(entries) : undefined;
  return (
    <section aria-labelledby="blacklist-counts-heading" aria-busy={isLoading}>
      <h2 id="blacklist-counts-heading" className="sr-only">
        Active blacklist entries by type
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {blacklistTypes.map((type) => (
          <StatCard
            key={type}
            title={BLACKLIST_COUNT_CARD_TITLES[type]}
            value={counts ? countFormat.format(counts[type]) : '—'}
            description="Active entries"
            icon={ICONS[type]}
            isLoading={isLoading}
            testId={`blacklist-count-${type}`}
          />
        ))}
      </div>
    </section>
  );
}
