import { Copy, Save, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';

export const CODE_COPIED_MESSAGE = 'Code copied to clipboard';

/**
 * The buttons over a code box that can be copied and edited: while reading, Copy Code and then
 * the caller's own actions (`children`: Edit, Download...); while editing, Save and Cancel, both
 * held while the save is on its way.
 */
export function CodeEditActions({
  code,
  isEditing,
  isSaving,
  saveLabel,
  onSave,
  onCancel,
  children,
}: {
  /** What Copy Code copies: the code as shown. */
  code: string;
  isEditing: boolean;
  isSaving: boolean;
  /** The Save button's text ("Save Template"); it says "Saving..." while saving. */
  saveLabel: string;
  onSave: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {isEditing ? (
        <>
          <Button onClick={onSave} disabled={isSaving}>
            <Save aria-hidden="true" />
            {isSaving ? 'Saving...' : saveLabel}
          </Button>
          <Button variant="outline" disabled={isSaving} onClick={onCancel}>
            <X aria-hidden="true" />
            Cancel
          </Button>
        </>
      ) : (
        <>
          <Button variant="outline" onClick={() => void copyToClipboard(code, CODE_COPIED_MESSAGE)}>
            <Copy aria-hidden="true" />
            Copy Code
          </Button>
          {children}
        </>
      )}
    </div>
  );
}
