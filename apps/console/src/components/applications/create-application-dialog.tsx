import { APPLICATION_NAME_REQUIRED, applicationLimits } from '@latchkey/contracts';
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer.tsx';
import { FormError, FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useCreateApplication } from '@/hooks/use-applications.ts';

/** Spec doc 1 §2: the 'New Application' dialog (name required, description optional). */
export function CreateApplicationDialog({ trigger }: { trigger?: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);

  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      <DialogTrigger asChild>
        {trigger ?? (
          <Button>
            <Plus aria-hidden="true" />
            New Application
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        {/* Radix unmounts the content once closed, so each opening starts an empty form. */}
        <CreateApplicationForm onDone={() => setIsOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CreateApplicationForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [validationError, setValidationError] = useState<string | null>(null);
  const createApplication = useCreateApplication();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setValidationError(APPLICATION_NAME_REQUIRED);
      return;
    }
    setValidationError(null);
    createApplication.mutate(
      { name: name.trim(), description: description.trim() },
      { onSuccess: onDone },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>New Application</DialogTitle>
        <DialogDescription>
          Each application gets its own API key, end users and settings.
        </DialogDescription>
      </DialogHeader>
      <FormError>{validationError}</FormError>
      <FormField htmlFor={`${id}-name`} label="Name" isRequired>
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="My Desktop App"
          maxLength={applicationLimits.name}
          aria-required="true"
          aria-invalid={validationError ? true : undefined}
          autoFocus
        />
      </FormField>
      <FormField htmlFor={`${id}-description`} label="Description (optional)">
        <Textarea
          id={`${id}-description`}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          placeholder="What does this application do?"
          maxLength={applicationLimits.description}
          rows={3}
        />
      </FormField>
      <DialogFormFooter
        submitLabel="Create Application"
        isSubmitting={createApplication.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
