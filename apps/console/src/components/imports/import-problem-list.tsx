import type { ImportProgress } from '@latchkey/contracts';
import { useId } from 'react';
import { describeProblemReason, formatCount, unlistedCount } from './import-display.ts';

type ImportRowProblem = ImportProgress['conflicts'][number];

/**
 * Rows the import will not create, with their row numbers so the owner can find them in the
 * file. The server lists the first 100 of each kind; its count is exact, so the rest is said.
 */
export function ImportProblemList({
  title,
  problems,
  total,
}: {
  title: string;
  problems: readonly ImportRowProblem[];
  total: number;
}) {
  const id = useId();
  if (total === 0) return null;
  const unlisted = unlistedCount(problems.length, total);

  return (
    <div className="grid gap-2">
      <h3 id={`${id}-title`} className="text-sm font-medium">
        {title} ({formatCount(total)})
      </h3>
      {/* Focusable, so a keyboard can scroll a long list. */}
      <div
        role="region"
        aria-labelledby={`${id}-title`}
        tabIndex={0}
        className="max-h-40 overflow-y-auto rounded-md border border-border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <ul className="divide-y divide-border text-sm">
          {problems.map((problem) => (
            <li key={`${problem.rowNumber}-${problem.reason}`} className="flex gap-3 px-3 py-1.5">
              <span className="shrink-0 font-medium tabular-nums">Row {problem.rowNumber}</span>
              <span className="min-w-0 break-words text-muted-foreground">
                {describeProblemReason(problem)}
              </span>
            </li>
          ))}
        </ul>
      </div>
      {unlisted > 0 && (
        <p className="text-sm text-muted-foreground">and {formatCount(unlisted)} more</p>
      )}
    </div>
  );
}
