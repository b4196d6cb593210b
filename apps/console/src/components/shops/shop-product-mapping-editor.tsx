import { shopLimits, type Plan } from '@latchkey/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { PlanSelect } from '@/components/plans/plan-select.tsx';
import { Button } from '@/components/ui/button.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { emptyProductRow, type ShopFieldProblem, type ShopProductFields } from './shop-display.ts';
import type { ShopProductNaming } from './shop-provider-guides.tsx';

/**
 * The shop's products and the plan each one sells: one row a product (its id, its plan, and
 * how many keys one unit bought mints), rows added and removed freely. A problem with the
 * mapping is said under it, its row's field marked.
 */
export function ShopProductMappingEditor({
  id,
  rows,
  plans,
  naming,
  problem,
  onChange,
}: {
  id: string;
  rows: readonly ShopProductFields[];
  plans: readonly Plan[];
  naming: ShopProductNaming;
  /** A problem of the `products` field (its row and column, when it names them). */
  problem: ShopFieldProblem | null;
  onChange: (rows: ShopProductFields[]) => void;
}) {
  const setRow = (rowKey: string, changes: Partial<ShopProductFields>) =>
    onChange(rows.map((row) => (row.rowKey === rowKey ? { ...row, ...changes } : row)));
  const isInvalid = (index: number, column: string) =>
    problem !== null && problem.row === index && (problem.column ?? column) === column;
  const problemText =
    problem === null
      ? null
      : problem.row === null
        ? problem.message
        : `Product ${problem.row + 1}: ${problem.message}`;

  return (
    <div
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-hint${problemText ? ` ${id}-problem` : ''}`}
      aria-invalid={problem !== null || undefined}
      className="grid gap-3"
    >
      <div className="grid gap-1">
        <span id={`${id}-title`} className="text-sm font-medium">
          Products and Plans
        </span>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {naming.hint} An order of a product mapped to no plan waits as Needs mapping until you map
          it and process the order.
        </p>
      </div>
      {plans.length === 0 && (
        <p className="rounded-md border border-dashed border-border p-3 text-sm text-muted-foreground">
          This application has no plans yet: create one in the Plans tab to sell it here.
        </p>
      )}
      {rows.map((row, index) => {
        const rowId = `${id}-${row.rowKey}`;
        const selectable = plans.filter((plan) => !plan.archived || plan.id === row.planId);
        return (
          <div
            key={row.rowKey}
            role="group"
            aria-label={`Product ${index + 1}`}
            className="grid gap-3 rounded-lg border border-border p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_6.5rem_auto] sm:items-end"
          >
            <InputField
              id={`${rowId}-product`}
              label={naming.label}
              value={row.productId}
              onValueChange={(productId) => setRow(row.rowKey, { productId })}
              placeholder={naming.placeholder}
              maxLength={shopLimits.productId}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={isInvalid(index, 'productId') || undefined}
            />
            <PlanSelect
              id={`${rowId}-plan`}
              label="Plan"
              plans={selectable}
              value={row.planId}
              onValueChange={(planId) => setRow(row.rowKey, { planId })}
              isInvalid={isInvalid(index, 'planId')}
            />
            <InputField
              id={`${rowId}-quantity`}
              label="Keys per unit"
              value={row.quantity}
              onValueChange={(quantity) => setRow(row.rowKey, { quantity })}
              inputMode="numeric"
              type="number"
              min={1}
              max={shopLimits.quantity}
              aria-invalid={isInvalid(index, 'quantity') || undefined}
            />
            <IconButton
              label={`Remove product ${index + 1}`}
              isDestructive
              className="justify-self-end sm:mb-0.5"
              onClick={() => onChange(rows.filter((candidate) => candidate.rowKey !== row.rowKey))}
            >
              <Trash2 aria-hidden="true" />
            </IconButton>
          </div>
        );
      })}
      {problemText && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
          {problemText}
        </p>
      )}
      <Button
        variant="outline"
        size="sm"
        className="w-fit"
        disabled={rows.length >= shopLimits.products}
        onClick={() => onChange([...rows, emptyProductRow()])}
      >
        <Plus aria-hidden="true" />
        Add Product
      </Button>
    </div>
  );
}
