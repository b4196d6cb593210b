import { codeFileNames, type CodeFile, type CodeFileName } from '@latchkey/contracts';
import { FileCode, Lock, Save, Undo2 } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { CodeEditor } from '@/components/code/code-editor.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { QueryView } from '@/components/ui/query-view.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useCodeFile, useCodeFiles, useSaveCodeFile } from '@/hooks/use-code-files.ts';
import { cn } from '@/lib/utils.ts';
import { CodeFileHistory } from './code-file-history.tsx';
import { formatDateTime } from '@/components/applications/application-display.ts';

export const FILES_FETCH_ERROR = 'Failed to load the files';
export const FILE_FETCH_ERROR = 'Failed to load the file';
export const READ_ONLY_MESSAGE = 'You need code editing permissions to modify this file.';

/**
 * The system-file editor, backed by the server: the account's three reference documents on the
 * left with their last-modified times, the chosen one in the editor on the right with Save,
 * and its version history below. Unsaved edits are kept per file while another is open, so
 * looking at one document never loses changes to another.
 */
export function ReferenceDocuments({ canEdit }: { canEdit: boolean }) {
  const filesQuery = useCodeFiles();
  const [selected, setSelected] = useState<CodeFileName>(codeFileNames[0]);
  const [drafts, setDrafts] = useState<Partial<Record<CodeFileName, string>>>({});

  const setDraft = (name: CodeFileName, draft: string | undefined) =>
    setDrafts((current) => {
      const next = { ...current };
      if (draft === undefined) delete next[name];
      else next[name] = draft;
      return next;
    });

  return (
    <SectionCard
      className="min-w-0"
      title="Reference Documents"
      description={
        <>
          Your own notes on how Latchkey&apos;s authentication, permissions and API routes work,
          kept in your account with a version history. They are documents: Latchkey never runs them.
        </>
      }
      contentClassName="min-w-0"
    >
      <QueryView
        query={filesQuery}
        loadingLabel="Loading the files…"
        loadingClassName="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[15rem_1fr]"
        skeletons={['h-36 w-full', 'h-96 w-full']}
        errorTitle="Error loading the files"
        fetchErrorMessage={FILES_FETCH_ERROR}
      >
        {(files) => (
          <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
            <nav aria-label="Files">
              <ul className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-1">
                {files.map((file) => {
                  const isSelected = file.name === selected;
                  return (
                    <li key={file.name}>
                      <button
                        type="button"
                        aria-current={isSelected ? 'true' : undefined}
                        onClick={() => setSelected(file.name)}
                        className={cn(
                          'grid w-full gap-0.5 rounded-md border px-3 py-2 text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40',
                          isSelected
                            ? 'border-primary bg-primary/10'
                            : 'border-transparent hover:bg-muted',
                        )}
                      >
                        <span className="flex items-center gap-2 font-mono text-sm font-medium">
                          <FileCode aria-hidden="true" className="size-4 shrink-0" />
                          {file.name}
                          {drafts[file.name] !== undefined && (
                            <Badge variant="warning">Unsaved</Badge>
                          )}
                        </span>
                        <span className="text-xs text-muted-foreground">
                          Modified {formatDateTime(file.lastModified)}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </nav>
            <DocumentPanel
              key={selected}
              name={selected}
              canEdit={canEdit}
              draft={drafts[selected]}
              onDraftChange={(draft) => setDraft(selected, draft)}
            />
          </div>
        )}
      </QueryView>
    </SectionCard>
  );
}

function DocumentPanel({
  name,
  canEdit,
  draft,
  onDraftChange,
}: {
  name: CodeFileName;
  canEdit: boolean;
  draft: string | undefined;
  onDraftChange: (draft: string | undefined) => void;
}) {
  const fileQuery = useCodeFile(name);
  return (
    <QueryView
      query={fileQuery}
      loadingLabel={`Loading ${name}…`}
      loadingClassName="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3"
      skeletons={['h-8 w-1/2', 'h-96 w-full']}
      errorTitle={`Error loading ${name}`}
      fetchErrorMessage={FILE_FETCH_ERROR}
    >
      {(file) => (
        <DocumentEditor
          file={file}
          // The server's word decides per file; the page's own check only hides what it can.
          isEditable={canEdit && file.canEdit}
          draft={draft}
          onDraftChange={onDraftChange}
        />
      )}
    </QueryView>
  );
}

function DocumentEditor({
  file,
  isEditable,
  draft,
  onDraftChange,
}: {
  file: CodeFile;
  isEditable: boolean;
  draft: string | undefined;
  onDraftChange: (draft: string | undefined) => void;
}) {
  const saveFile = useSaveCodeFile();
  const hasChanges = draft !== undefined && draft !== file.content;

  const save = () => {
    if (!isEditable || !hasChanges || saveFile.isPending) return;
    saveFile.mutate(
      { name: file.name, content: draft, baseVersion: file.version },
      { onSuccess: () => onDraftChange(undefined) },
    );
  };

  // Ctrl+S / Cmd+S saves, as in any editor, instead of the browser's "Save page".
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      save();
    }
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-0.5">
          <h3 className="font-mono text-base font-semibold">{file.name}</h3>
          <p className="text-xs text-muted-foreground" data-testid="code-file-last-modified">
            Last modified {formatDateTime(file.lastModified)} · version {file.version}
          </p>
        </div>
        {isEditable && (
          <div className="flex flex-wrap gap-2">
            {hasChanges && (
              <Button
                variant="outline"
                disabled={saveFile.isPending}
                onClick={() => onDraftChange(undefined)}
              >
                <Undo2 aria-hidden="true" />
                Discard
              </Button>
            )}
            <Button onClick={save} disabled={!hasChanges || saveFile.isPending}>
              <Save aria-hidden="true" />
              {saveFile.isPending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        )}
      </div>

      {!isEditable && (
        <p
          className="flex items-center gap-2 rounded-md border border-border bg-muted px-3 py-2 text-sm"
          data-testid="read-only-notice"
        >
          <Lock aria-hidden="true" className="size-4 shrink-0" />
          {READ_ONLY_MESSAGE}
        </p>
      )}

      <div className="min-w-0" onKeyDown={onKeyDown}>
        <CodeEditor
          value={draft ?? file.content}
          onChange={isEditable ? onDraftChange : undefined}
          language="typescript"
          label={`${file.name} document`}
          isReadOnly={!isEditable}
          maxHeight="28rem"
        />
      </div>
      {isEditable && (
        <p className="text-xs text-muted-foreground">
          Ctrl+S (⌘S) saves. Tab indents; press Esc, then Tab, to move on from the text.
        </p>
      )}

      <CodeFileHistory
        name={file.name}
        canRestore={isEditable}
        hasUnsavedChanges={hasChanges}
        onRestored={() => onDraftChange(undefined)}
      />
    </div>
  );
}
