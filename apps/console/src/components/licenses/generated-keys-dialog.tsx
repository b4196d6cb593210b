import type { GeneratedLicenses, Plan } from '@latchkey/contracts';
import { Copy, Download } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { downloadTextFile } from '@/lib/download-text-file.ts';
import { toKeysCsv, toKeysText } from './license-display.ts';

/** What was just generated, and for which plan. */
export interface GeneratedBatch {
  generated: GeneratedLicenses;
  plan: Plan;
}

/** A file name from the plan's name: letters and digits, so every system accepts it. */
function toFileStem(plan: Plan): string {
  const stem = plan.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `licence-keys-${stem || 'plan'}`;
}

/**
 * The keys just generated, in full, with Copy all and two downloads made in the browser from
 * the answer (no second request). The list can still reveal or export them later.
 */
export function GeneratedKeysDialog({
  batch,
  ...openState
}: DialogOpenState & {
  batch: GeneratedBatch | null;
}) {
  const id = useId();
  const count = batch?.generated.keys.length ?? 0;
  const keysText = batch ? toKeysText(batch.generated) : '';

  return (
    <Dialog {...openState}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>New Licence Keys</DialogTitle>
          <DialogDescription>
            {count.toLocaleString('en-US')} {count === 1 ? 'key' : 'keys'} of{' '}
            <strong className="font-medium break-all text-foreground">{batch?.plan.name}</strong>.
            Copy or download them now; you can also reveal or export them from the list later.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-keys`}>Keys</Label>
          <Textarea
            id={`${id}-keys`}
            readOnly
            value={keysText}
            rows={Math.min(Math.max(count, 3), 10)}
            spellCheck={false}
            className="font-mono text-xs"
          />
        </div>
        <DialogFooter className="flex-wrap">
          <Button
            variant="outline"
            disabled={!batch}
            onClick={() => void copyToClipboard(keysText, 'Licence keys copied to clipboard')}
          >
            <Copy aria-hidden="true" />
            Copy all
          </Button>
          <Button
            variant="outline"
            disabled={!batch}
            onClick={() => batch && downloadTextFile(`${toFileStem(batch.plan)}.txt`, keysText)}
          >
            <Download aria-hidden="true" />
            Download .txt
          </Button>
          <Button
            variant="outline"
            disabled={!batch}
            onClick={() =>
              batch &&
              downloadTextFile(
                `${toFileStem(batch.plan)}.csv`,
                toKeysCsv(batch.generated),
                'text/csv;charset=utf-8',
              )
            }
          >
            <Download aria-hidden="true" />
            Download .csv
          </Button>
          <Button onClick={() => openState.onOpenChange(false)}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
