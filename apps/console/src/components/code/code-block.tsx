import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';
import { CodeEditor, type CodeLanguage } from './code-editor.tsx';

/** A read-only, highlighted snippet with a labelled copy button above it. */
export function CodeBlock({
  code,
  language,
  label,
  maxHeight,
}: {
  code: string;
  language: CodeLanguage;
  /** Names the box and its button ("Copy {label}"). */
  label: string;
  maxHeight?: string;
}) {
  return (
    <div className="grid min-w-0 gap-2">
      <div className="flex justify-end">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyToClipboard(code, 'Code copied to clipboard')}
        >
          <Copy aria-hidden="true" />
          Copy {label}
        </Button>
      </div>
      <CodeEditor value={code} language={language} label={label} isReadOnly maxHeight={maxHeight} />
    </div>
  );
}
