import type { Application } from '@latchkey/contracts';
import { OptionSelect, type SelectOption } from '@/components/ui/option-select.tsx';
import { SelectItem } from '@/components/ui/select.tsx';
import { useApplications } from '@/hooks/use-applications.ts';

/** The owner's applications as options of a select, by id as a string. */
export function toApplicationOptions(
  applications: readonly Pick<Application, 'id' | 'name'>[] = [],
): SelectOption[] {
  return applications.map(({ id, name }) => ({ value: String(id), label: name }));
}

/**
 * Picks what a rule applies to: every one of the owner's applications (the first option,
 * `allValue`) or one of them, by id as a string.
 */
export function ApplicationScopeSelect({
  id,
  value,
  onValueChange,
  allValue,
  allLabel,
}: {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  allValue: string;
  allLabel: string;
}) {
  const { data: applications, isPending: isLoadingApplications } = useApplications();
  return (
    <OptionSelect
      id={id}
      value={value}
      onValueChange={onValueChange}
      allOption={{ value: allValue, label: allLabel }}
      options={toApplicationOptions(applications)}
    >
      {isLoadingApplications && (
        <SelectItem value="loading" disabled>
          Loading applications...
        </SelectItem>
      )}
    </OptionSelect>
  );
}
