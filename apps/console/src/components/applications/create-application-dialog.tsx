import { APPLICATION_NAME_REQUIRED, applicationLimits } from '@latchkey/contracts';
import { Plus } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { useCreateApplication } from '@/hooks/use-applications.ts';

/** The 'New Application' dialog (name required, description optional). */
export function CreateApplicationDialog({ trigger }: { trigger?: ReactNode }) {
  return (
    <FormDialog trigger={trigger} triggerIcon={Plus} triggerLabel="New Application">
      {(close) => <CreateApplicationForm onDone={close} />}
    </FormDialog>
  );
}

function CreateApplicationForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const createApplication = useCreateApplication();
  const { bindText, validationError, dialogForm } = useMutationForm({
    initialFields: { name: '', description: '' },
    validate: ({ name }) => (name.trim() ? null : APPLICATION_NAME_REQUIRED),
    mutation: createApplication,
    toRequest: ({ name, description }) => ({ name: name.trim(), description: description.trim() }),
    onDone,
  });

  return (
    <DialogForm
      title="New Application"
      description="Each application gets its own API key, end users and settings."
      submitLabel="Create Application"
      {...dialogForm}
      className="gap-5"
    >
      <InputField
        id={`${id}-name`}
        label="Name"
        isRequired
        {...bindText('name')}
        placeholder="My Desktop App"
        maxLength={applicationLimits.name}
        aria-invalid={validationError ? true : undefined}
        autoFocus
      />
      <TextareaField
        id={`${id}-description`}
        label="Description (optional)"
        {...bindText('description')}
        placeholder="What does this application do?"
        maxLength={applicationLimits.description}
        rows={3}
      />
    </DialogForm>
  );
}
