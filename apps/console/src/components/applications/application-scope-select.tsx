import {
  Select,
  SelectContent,
  SelectItem,
  SelectSeparator,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select.tsx';
import { useApplications } from '@/hooks/use-applications.ts';

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
    <Select value={value} onValueChange={onValueChange}>
      <SelectTrigger id={id}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={allValue}>{allLabel}</SelectItem>
        {(applications?.length ?? 0) > 0 && <SelectSeparator />}
        {applications?.map((application) => (
          <SelectItem key={application.id} value={String(application.id)}>
            {application.name}
          </SelectItem>
        ))}
        {isLoadingApplications && (
          <SelectItem value="loading" disabled>
            Loading applications...
          </SelectItem>
        )}
      </SelectContent>
    </Select>
  );
}
