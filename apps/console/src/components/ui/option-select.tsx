import type { ComponentProps, ReactNode } from 'react';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectSeparator,
  SelectTrigger,
  SelectValue,
} from './select.tsx';

export interface SelectOption<Value extends string = string> {
  value: Value;
  label: ReactNode;
  isDisabled?: boolean;
}

/** The options of each of `values`, labelled from `labels`. */
export function labelledOptions<Value extends string>(
  values: readonly Value[],
  labels: Readonly<Record<Value, ReactNode>>,
): SelectOption<Value>[] {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** What a form or a filter tells the select's trigger (a button named by its label). */
type TriggerProps = Pick<
  ComponentProps<typeof SelectTrigger>,
  'aria-required' | 'aria-invalid' | 'aria-describedby' | 'autoFocus'
>;

/**
 * A select of one of a list of options. `allOption` (a filter's "All ...") comes first, set
 * apart from the others by a separator; `children` (an item for a value that is not in the list,
 * or a disabled "Loading ...") come last.
 */
export function OptionSelect<Value extends string>({
  id,
  value,
  onValueChange,
  options,
  allOption,
  placeholder,
  disabled,
  children,
  ...triggerProps
}: TriggerProps & {
  id: string;
  value: string;
  onValueChange: (value: Value) => void;
  options: readonly SelectOption<Value>[];
  allOption?: SelectOption<Value>;
  /** Shown while nothing is chosen. */
  placeholder?: string;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <Select
      value={value}
      // Radix hands back the value of one of the items, which are all Values.
      onValueChange={(chosen) => onValueChange(chosen as Value)}
      disabled={disabled}
    >
      <SelectTrigger id={id} {...triggerProps}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {allOption && (
          <>
            <SelectItem value={allOption.value}>{allOption.label}</SelectItem>
            {options.length > 0 && <SelectSeparator />}
          </>
        )}
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value} disabled={option.isDisabled}>
            {option.label}
          </SelectItem>
        ))}
        {children}
      </SelectContent>
    </Select>
  );
}
