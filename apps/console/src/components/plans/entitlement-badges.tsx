import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * Entitlement codes as badges, in a list named for whose they are ("Entitlements of Pro"), or
 * None when there are none.
 */
export function EntitlementBadges({
  codes,
  ownerName,
  className,
}: {
  codes: readonly string[];
  /** A plan's or a user's name, for the list's accessible name. */
  ownerName: string;
  className?: string;
}) {
  if (codes.length === 0) {
    return <span className="text-sm text-muted-foreground italic">None</span>;
  }
  return (
    <ul
      aria-label={`Entitlements of ${ownerName}`}
      className={cn('flex flex-wrap gap-1', className)}
    >
      {codes.map((code) => (
        <li key={code}>
          <Badge variant="secondary" className="font-mono">
            {code}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
