import type { Sample } from '@latchkey/contracts';
import { useState } from 'react';
import { useSaveSample } from '@/hooks/use-samples.ts';

/**
 * An edit of a sample's code, kept as a draft until saved: null while the code is only read.
 * `editor` is what the code box takes (the draft while editing, else the sample, and read-only
 * then); `save` keeps the draft as the application's sample and ends the edit once the server
 * has it. With no application (the bare template) there is nothing to save to.
 */
export function useSampleDraft(sample: Sample, applicationId: number | null) {
  const [draft, setDraft] = useState<string | null>(null);
  const saveSample = useSaveSample();
  const isEditing = draft !== null;
  const shownCode = draft ?? sample.code;

  const save = () => {
    if (draft === null || applicationId === null) return;
    saveSample.mutate(
      { applicationId, language: sample.language, code: draft },
      { onSuccess: () => setDraft(null) },
    );
  };

  return {
    draft,
    setDraft,
    isEditing,
    shownCode,
    isSaving: saveSample.isPending,
    save,
    editor: {
      value: shownCode,
      onChange: isEditing ? setDraft : undefined,
      isReadOnly: !isEditing,
    },
  };
}
