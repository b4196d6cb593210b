import { lazy, Suspense } from 'react';
import { cn } from '@/lib/utils.ts';
import type { CodeLanguage } from './code-languages.ts';

export type { CodeLanguage } from './code-languages.ts';

export interface CodeEditorProps {
  value: string;
  /** Called with the whole text after each edit; never called while read-only. */
  onChange?: (value: string) => void;
  language: CodeLanguage;
  /** The accessible name of the code box, e.g. "C# WinForms code". */
  label: string;
  isReadOnly?: boolean;
  /** Tallest the box grows before it scrolls (CSS length); long files scroll inside it. */
  maxHeight?: string;
  className?: string;
}

// CodeMirror and its parsers are about as large as the rest of a page: only the pages that
// show code load them, and only once such a page renders a code box.
const CodeMirrorEditor = lazy(() => import('./code-mirror-editor.tsx'));

/**
 * A syntax-highlighted code box with line numbers (CodeMirror 6), read-only or editable, in the
 * console's light or dark theme. Keyboard: in an editable box Tab indents; Esc then Tab (or
 * Shift+Tab) leaves it. A read-only box never captures Tab.
 */
export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<CodeEditorFallback {...props} />}>
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}

/** The code as plain text while the editor loads, so the page neither jumps nor hides it. */
function CodeEditorFallback({ value, maxHeight = '32rem', className }: CodeEditorProps) {
  return (
    <div
      aria-busy="true"
      className={cn('overflow-auto rounded-lg border border-border bg-muted', className)}
      style={{ maxHeight }}
    >
      <span className="sr-only">Loading the code editor…</span>
      <pre className="p-3 font-mono text-[0.8125rem] leading-relaxed text-foreground">{value}</pre>
    </div>
  );
}
