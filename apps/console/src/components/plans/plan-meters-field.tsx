import { meterLimits, meterOverageSchema, meterResetEverySchema } from '@latchkey/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { FieldProblem } from '@/components/ui/form-field.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import {
  METER_OVERAGE_LABELS,
  METER_RESET_LABELS,
  newMeterFields,
  type MeterFields,
} from './plan-display.ts';

/**
 * The plan form's usage meters: a row per meter (name, allowance, period, what happens past
 * it), added and removed in place. Each control has its own label, visible above the first
 * row on a wide screen and above every control on a phone, where the row stacks.
 */
export function PlanMetersField({
  id,
  meters,
  onChange,
  problem,
}: {
  id: string;
  meters: MeterFields[];
  onChange: (meters: MeterFields[]) => void;
  problem: string | null;
}) {
  const change = (rowId: number, changes: Partial<MeterFields>) =>
    onChange(meters.map((meter) => (meter.rowId === rowId ? { ...meter, ...changes } : meter)));
  const isInvalid = problem !== null;
  const hintId = `${id}-hint`;
  const describedBy = isInvalid ? `${hintId} ${id}-problem` : hintId;

  return (
    <fieldset className="grid gap-2" aria-describedby={describedBy}>
      <legend className="mb-2 text-sm font-medium">Usage meters (optional)</legend>
      <p id={hintId} className="-mt-1 text-xs text-muted-foreground">
        What a holder may use each period, such as 500 exports a month. Your program counts use with
        meters/&#123;name&#125;/use.
      </p>
      {meters.map((meter, index) => {
        const rowId = `${id}-${meter.rowId}`;
        const named = meter.name.trim() || `meter ${index + 1}`;
        return (
          <div
            key={meter.rowId}
            className="grid grid-cols-2 items-end gap-2 rounded-md border p-2 sm:grid-cols-[minmax(0,1fr)_7rem_7.5rem_10rem_auto] sm:border-0 sm:p-0"
            data-testid="plan-meter-row"
          >
            <div className="col-span-2 grid gap-1 sm:col-span-1">
              <Label htmlFor={`${rowId}-name`} className={index > 0 ? 'sm:sr-only' : undefined}>
                Meter name
              </Label>
              <Input
                id={`${rowId}-name`}
                value={meter.name}
                onChange={(event) => change(meter.rowId, { name: event.target.value })}
                placeholder="exports"
                maxLength={meterLimits.name}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                aria-invalid={isInvalid || undefined}
              />
            </div>
            <div className="grid gap-1">
              <Label
                htmlFor={`${rowId}-allowance`}
                className={index > 0 ? 'sm:sr-only' : undefined}
              >
                Allowance
              </Label>
              <Input
                id={`${rowId}-allowance`}
                // Text, as the plan's other numbers: "5OO" is explained rather than emptied.
                inputMode="numeric"
                value={meter.allowance}
                onChange={(event) => change(meter.rowId, { allowance: event.target.value })}
                placeholder="500"
                autoComplete="off"
                aria-invalid={isInvalid || undefined}
              />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={`${rowId}-reset`} className={index > 0 ? 'sm:sr-only' : undefined}>
                Resets
              </Label>
              <OptionSelect
                id={`${rowId}-reset`}
                value={meter.resetEvery}
                onValueChange={(resetEvery) => change(meter.rowId, { resetEvery })}
                options={labelledOptions(meterResetEverySchema.options, METER_RESET_LABELS)}
              />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={`${rowId}-overage`} className={index > 0 ? 'sm:sr-only' : undefined}>
                Past the allowance
              </Label>
              <OptionSelect
                id={`${rowId}-overage`}
                value={meter.overage}
                onValueChange={(overage) => change(meter.rowId, { overage })}
                options={labelledOptions(meterOverageSchema.options, METER_OVERAGE_LABELS)}
              />
            </div>
            <IconButton
              label={`Remove ${named}`}
              isDestructive
              className="justify-self-end"
              onClick={() => onChange(meters.filter((other) => other.rowId !== meter.rowId))}
            >
              <Trash2 aria-hidden="true" />
            </IconButton>
          </div>
        );
      })}
      {problem && <FieldProblem id={`${id}-problem`}>{problem}</FieldProblem>}
      {meters.length < meterLimits.metersPerPlan && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => onChange([...meters, newMeterFields()])}
        >
          <Plus aria-hidden="true" />
          Add Meter
        </Button>
      )}
    </fieldset>
  );
}
