import type { Application } from '@latchkey/contracts';
import { useMutationForm } from '@/components/ui/form-dialog.tsx';
import { useUpdateApplication, type ApplicationUpdate } from '@/hooks/use-applications.ts';

/** What a form that changes one saved application takes from its dialog. */
export interface ApplicationFormProps {
  application: Application;
  onDone: () => void;
}

/**
 * A dialog form that saves changes to `application` (useMutationForm on its update): the fields
 * start from `toFields(application)`, and valid ones are sent as `toChanges` makes them.
 */
export function useApplicationForm<Fields extends object>(
  { application, onDone }: ApplicationFormProps,
  {
    toFields,
    validate,
    toChanges,
  }: {
    toFields: (application: Application) => Fields;
    validate: (fields: Fields) => string | null;
    toChanges: (fields: Fields) => ApplicationUpdate['changes'];
  },
) {
  const updateApplication = useUpdateApplication();
  return useMutationForm({
    initialFields: () => toFields(application),
    validate,
    mutation: updateApplication,
    toRequest: (fields) => ({ applicationId: application.id, changes: toChanges(fields) }),
    onDone,
  });
}
