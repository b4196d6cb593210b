import type { Application } from '@latchkey/contracts';
import { useMutationForm } from '@/components/ui/form-dialog.tsx';
import type { FieldProblems } from '@/hooks/use-form-fields.ts';
import { useUpdateApplication, type ApplicationUpdate } from '@/hooks/use-applications.ts';

/** What a form that changes one saved application takes from its dialog. */
export interface ApplicationFormProps {
  application: Application;
  onDone: () => void;
}

/**
 * A dialog form that saves changes to `application` (useMutationForm on its update): the fields
 * start from `toFields(application)`, are checked by `validateFields` (each field's problem, all
 * shown at once), and valid ones are sent as `toChanges` makes them; a refusal is shown at the
 * field `fieldOfPath` names.
 */
export function useApplicationForm<Fields extends object>(
  { application, onDone }: ApplicationFormProps,
  {
    toFields,
    validateFields,
    fieldOfPath,
    toChanges,
  }: {
    toFields: (application: Application) => Fields;
    validateFields: (fields: Fields) => FieldProblems;
    fieldOfPath?: (path: string) => string | undefined;
    toChanges: (fields: Fields) => ApplicationUpdate['changes'];
  },
) {
  const updateApplication = useUpdateApplication();
  return useMutationForm({
    initialFields: () => toFields(application),
    validateFields,
    fieldOfPath,
    mutation: updateApplication,
    toRequest: (fields) => ({ applicationId: application.id, changes: toChanges(fields) }),
    onDone,
  });
}
