import type { ImportKeyauthSettings } from '@latchkey/contracts';
import { CircleAlert, Info } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/utils.ts';

const OUTCOME_LABELS: Record<ImportKeyauthSettings['outcome'], string> = {
  pending: 'Written when the import starts',
  written: 'Written to the application',
  unchanged: 'The application already has them',
  refused: 'Not written',
};

export const COMPATIBILITY_STAYS_OFF =
  "The import never turns KeyAuth compatibility on: turn it on in the application's API Configuration tab, KeyAuth Compatibility card, once the import is checked.";
export const ENTER_OWNER_ID_AND_NAME =
  "The file holds KeyAuth's secret but not its owner ID: enter KeyAuth's owner ID and application name on that card before turning compatibility on, or turning it on generates a new owner ID your program does not have.";

/**
 * The application's KeyAuth settings the file holds (never the secret itself), and what
 * became of them. Compatibility stays off whatever the outcome: the owner turns it on.
 */
export function ImportKeyauthSettingsView({ settings }: { settings: ImportKeyauthSettings }) {
  const id = useId();
  const isSecretWithoutOwnerId =
    settings.hasSecret && settings.ownerId === null && settings.outcome !== 'refused';
  const facts = [
    { label: 'Owner ID', value: settings.ownerId },
    { label: 'Application name', value: settings.name },
    { label: 'Secret', value: settings.hasSecret ? 'In the file (not shown)' : null },
    { label: 'Outcome', value: OUTCOME_LABELS[settings.outcome] },
  ];

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-2">
      <h3 id={`${id}-title`} className="text-sm font-medium">
        KeyAuth settings in the file
      </h3>
      <dl className="grid gap-x-4 gap-y-1 rounded-md border border-border px-3 py-2 text-sm sm:grid-cols-[auto_1fr]">
        {facts.map((fact) => (
          <div key={fact.label} className="contents">
            <dt className="text-muted-foreground">{fact.label}</dt>
            <dd
              className={cn(
                'min-w-0 break-all',
                fact.value === null && 'text-muted-foreground',
                fact.label === 'Outcome' && settings.outcome === 'refused' && 'text-destructive',
              )}
            >
              {fact.value ?? 'Not in the file'}
            </dd>
          </div>
        ))}
      </dl>
      {settings.problem !== null && (
        <p className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 break-words">{settings.problem}</span>
        </p>
      )}
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>{COMPATIBILITY_STAYS_OFF}</span>
      </p>
      {isSecretWithoutOwnerId && (
        <p className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm text-foreground">
          {ENTER_OWNER_ID_AND_NAME}
        </p>
      )}
    </section>
  );
}
