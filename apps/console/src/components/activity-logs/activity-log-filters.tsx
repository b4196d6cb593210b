import { activityEventLabels, activityEventNames, type Application } from '@latchkey/contracts';
import { FilterX, Search } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { toApplicationOptions } from '@/components/applications/application-scope-select.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { SelectItem } from '@/components/ui/select.tsx';
import {
  ALL_FILTER_VALUE,
  hasActiveFilters,
  NO_ACTIVITY_LOG_FILTERS,
  type ActivityLogFilters as ActivityLogFiltersValue,
} from './activity-log-display.ts';

/** The filters: application, event type, free-text search and Clear Filters. */
export function ActivityLogFilters({
  filters,
  onChange,
  applications,
}: {
  filters: ActivityLogFiltersValue;
  onChange: (filters: ActivityLogFiltersValue) => void;
  applications: readonly Application[] | undefined;
}) {
  const id = useId();
  // An application deleted since it was chosen still shows its id rather than a blank box.
  const isKnownApplication =
    filters.applicationId === null ||
    applications?.some((application) => application.id === filters.applicationId);

  return (
    <div
      role="search"
      aria-label="Filter activity logs"
      className="grid gap-4 md:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.5fr)_auto] lg:items-end"
    >
      <FormField htmlFor={`${id}-application`} label="Application">
        <OptionSelect
          id={`${id}-application`}
          value={filters.applicationId === null ? ALL_FILTER_VALUE : String(filters.applicationId)}
          onValueChange={(value) =>
            onChange({
              ...filters,
              applicationId: value === ALL_FILTER_VALUE ? null : Number(value),
            })
          }
          allOption={{ value: ALL_FILTER_VALUE, label: 'All Applications' }}
          options={toApplicationOptions(applications)}
        >
          {!isKnownApplication && (
            <SelectItem value={String(filters.applicationId)}>
              App {filters.applicationId}
            </SelectItem>
          )}
        </OptionSelect>
      </FormField>
      <FormField htmlFor={`${id}-event`} label="Event Type">
        <OptionSelect<ActivityLogFiltersValue['event']>
          id={`${id}-event`}
          value={filters.event}
          onValueChange={(event) => onChange({ ...filters, event })}
          allOption={{ value: ALL_FILTER_VALUE, label: 'All Events' }}
          options={labelledOptions(activityEventNames, activityEventLabels)}
        />
      </FormField>
      <FormField htmlFor={`${id}-search`} label="Search">
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-search`}
            type="search"
            value={filters.search}
            onChange={(event) => onChange({ ...filters, search: event.target.value })}
            placeholder="Username, IP address or event..."
            autoComplete="off"
            spellCheck={false}
            className="pl-9"
          />
        </div>
      </FormField>
      <Button
        variant="outline"
        onClick={() => onChange(NO_ACTIVITY_LOG_FILTERS)}
        disabled={!hasActiveFilters(filters)}
      >
        <FilterX aria-hidden="true" />
        Clear Filters
      </Button>
    </div>
  );
}
