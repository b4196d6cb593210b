import type { ComponentProps, ReactNode } from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { cn } from '@/lib/utils.ts';

/** A label above its control, with an optional hint below tied to it by aria-describedby. */
export function FormField({
  htmlFor,
  label,
  hint,
  isRequired = false,
  className,
  children,
}: {
  htmlFor: string;
  label: ReactNode;
  /** Rendered with id `${htmlFor}-hint`; pass that id as the control's aria-describedby. */
  hint?: ReactNode;
  isRequired?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={htmlFor}>
        {label}
        {isRequired && (
          <span aria-hidden="true" className="-ml-1 text-destructive">
            *
          </span>
        )}
      </Label>
      {children}
      {hint && (
        <p id={`${htmlFor}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/** What a labelled control takes beside its own attributes. */
type LabelledControlProps<ControlProps> = Omit<ControlProps, 'id' | 'onChange'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  isRequired?: boolean;
  /** Classes of the field (label, control and hint together); `className` styles the control. */
  fieldClassName?: string;
  onValueChange?: (value: string) => void;
  /**
   * What is wrong with the value, from the console's check or the server's refusal: shown and
   * announced below the control, which is marked invalid.
   */
  problem?: string | null | undefined;
};

/** What LabelledControl hands the control it draws: its own props, wired to the label. */
type WiredControlProps = {
  id: string;
  'aria-required': true | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  onChange: ((event: { target: { value: string } }) => void) | undefined;
};

/** From this share of a field's length limit on, the field counts its characters. */
const COUNT_FROM_SHARE = 0.8;

/**
 * "90 / 100 characters" under a text control near its limit: a browser stops typing at
 * `maxLength` without a word, so the owner is told before the text is cut off. Null while far
 * from the limit, or when the control holds no text of its own (uncontrolled).
 */
export function describeLengthLimit(
  value: unknown,
  maxLength: unknown,
): { text: string; isAtLimit: boolean } | null {
  if (typeof value !== 'string' || typeof maxLength !== 'number') return null;
  if (value.length < maxLength * COUNT_FROM_SHARE) return null;
  const isAtLimit = value.length >= maxLength;
  const count = `${value.length} / ${maxLength} characters`;
  return { text: isAtLimit ? `${count}: the limit` : count, isAtLimit };
}

/**
 * FormField around a text control, with the hint, the requirement and any problem told to
 * screen readers as well (aria-describedby, aria-required, aria-invalid), so no form forgets to
 * wire them. Near its `maxLength` the field counts its characters.
 */
function LabelledControl<ControlProps>({
  id,
  label,
  hint,
  isRequired = false,
  fieldClassName,
  onValueChange,
  problem,
  control,
  ...controlProps
}: LabelledControlProps<ControlProps> & {
  control: (props: WiredControlProps) => ReactNode;
}) {
  const {
    value,
    maxLength,
    'aria-invalid': invalid,
  } = controlProps as { value?: unknown; maxLength?: unknown; 'aria-invalid'?: true };
  const lengthLimit = describeLengthLimit(value, maxLength);
  const describedBy = [
    problem && `${id}-problem`,
    hint && `${id}-hint`,
    lengthLimit && `${id}-count`,
  ].filter(Boolean);
  return (
    <FormField
      htmlFor={id}
      label={label}
      hint={hint}
      isRequired={isRequired}
      className={fieldClassName}
    >
      {control({
        id,
        'aria-required': isRequired || undefined,
        'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
        onChange: onValueChange && ((event) => onValueChange(event.target.value)),
        ...controlProps,
        // After the control's own props: a problem marks the control whatever the form says.
        'aria-invalid': problem ? true : invalid,
      })}
      {problem && <FieldProblem id={`${id}-problem`}>{problem}</FieldProblem>}
      {lengthLimit && (
        <p
          id={`${id}-count`}
          className={cn(
            '-mt-1 text-right text-xs tabular-nums',
            lengthLimit.isAtLimit ? 'text-warning' : 'text-muted-foreground',
          )}
        >
          {lengthLimit.text}
        </p>
      )}
    </FormField>
  );
}

/** A labelled one-line text input. */
export function InputField(props: LabelledControlProps<ComponentProps<'input'>>) {
  return <LabelledControl {...props} control={(input) => <Input {...input} />} />;
}

/** A labelled text area, for text of a few lines (a description, a reason). */
export function TextareaField(props: LabelledControlProps<ComponentProps<'textarea'>>) {
  return <LabelledControl {...props} control={(textarea) => <Textarea {...textarea} />} />;
}

/**
 * An on/off setting: its label and hint on the left, the switch on the right, the hint told to
 * screen readers with the switch (rendered with id `${id}-hint`).
 */
export function SwitchField({
  id,
  label,
  hint,
  fieldClassName,
  ...switchProps
}: Omit<ComponentProps<typeof Switch>, 'id'> & {
  id: string;
  label: ReactNode;
  hint: ReactNode;
  /** Classes of the row (label, hint and switch together). */
  fieldClassName?: string;
}) {
  return (
    <div className={cn('flex items-center justify-between gap-4', fieldClassName)}>
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-hint`} {...switchProps} />
    </div>
  );
}

/**
 * What is wrong with one field, below it in the destructive colour; the control names it in
 * its aria-describedby. Announced when it appears, so a refusal read after Save is heard.
 */
export function FieldProblem({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="-mt-1 text-sm text-destructive">
      {children}
    </p>
  );
}

/**
 * A bordered box of choices (check boxes) with its problem, if any, shown above it: above, not
 * below, because such a list can be taller than a phone's screen, and its first box, which takes
 * the focus, is then in view with the words beside it.
 */
export function ChoiceBox({
  problem,
  problemId,
  className,
  children,
}: {
  problem: string | undefined;
  problemId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <>
      {problem && <FieldProblem id={problemId}>{problem}</FieldProblem>}
      <div
        className={cn(
          'grid rounded-lg border border-border p-3 sm:grid-cols-2',
          problem && 'border-destructive',
          className,
        )}
      >
        {children}
      </div>
    </>
  );
}

/** A form-level validation message, announced when it appears. */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
    >
      {children}
    </p>
  );
}
