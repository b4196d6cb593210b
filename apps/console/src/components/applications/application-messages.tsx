import {
  applicationMessageFields,
  applicationMessageLabels,
  type Application,
} from '@latchkey/contracts';
import { MessageSquare } from 'lucide-react';
import { SectionCard } from '@/components/ui/section-card.tsx';

/** The Messages tab shows the six custom messages, read-only. */
export function ApplicationMessages({ application }: { application: Application }) {
  return (
    <SectionCard
      title="Custom Messages"
      description={
        <>
          What your users see for each outcome. Edit them from the dashboard&apos;s Edit Application
          dialog.
        </>
      }
      icon={MessageSquare}
    >
      <dl className="grid gap-4 sm:grid-cols-2">
        {applicationMessageFields.map((field) => (
          <div key={field} className="grid gap-1.5">
            <dt className="text-sm font-medium">{applicationMessageLabels[field]}</dt>
            <dd
              data-testid={`message-${field}`}
              className="rounded-md border border-border bg-muted/40 px-3 py-2 text-sm break-words"
            >
              {application[field]}
            </dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}
