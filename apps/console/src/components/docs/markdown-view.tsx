import { Fragment } from 'react';
import { CodeBlock } from '@/components/code/code-block.tsx';
import type { CodeLanguage } from '@/components/code/code-editor.tsx';
import { parseInline, parseMarkdownBlocks } from '@/lib/markdown-blocks.ts';

/** Fenced code the page highlights (with a copy button); other fences stay plain text. */
const FENCE_LANGUAGES: Record<string, { language: CodeLanguage; label: string }> = {
  js: { language: 'javascript', label: 'Node.js example' },
  javascript: { language: 'javascript', label: 'Node.js example' },
  ts: { language: 'typescript', label: 'TypeScript example' },
  python: { language: 'python', label: 'Python example' },
  cpp: { language: 'cpp', label: 'C++ example' },
  csharp: { language: 'csharp', label: 'C# example' },
};

/**
 * Code in a line of text. Broken only where it would not fit otherwise (a long URL on a phone),
 * so a short name never splits across lines.
 */
export const INLINE_CODE_CLASS =
  'rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] wrap-anywhere';

/** A line of the docs' Markdown: `code`, **strong** and _emphasis_, the rest as written. */
export function MarkdownInline({ text }: { text: string }) {
  return parseInline(text).map((part, index) => {
    switch (part.kind) {
      case 'code':
        return (
          <code key={index} className={INLINE_CODE_CLASS}>
            {part.text}
          </code>
        );
      case 'strong':
        return <strong key={index}>{part.text}</strong>;
      case 'emphasis':
        return <em key={index}>{part.text}</em>;
      default:
        return <Fragment key={index}>{part.text}</Fragment>;
    }
  });
}

/** A Markdown section of the repository's docs, headings shifted under the page's own. */
export function MarkdownView({
  markdown,
  headingLevel,
}: {
  markdown: string;
  headingLevel: 3 | 4;
}) {
  return (
    <div className="grid min-w-0 gap-3 text-sm leading-relaxed">
      {parseMarkdownBlocks(markdown).map((block, index) => {
        switch (block.kind) {
          case 'heading': {
            const Heading = headingLevel === 3 ? 'h3' : 'h4';
            return (
              <Heading key={index} className="mt-2 text-base font-semibold">
                <MarkdownInline text={block.text} />
              </Heading>
            );
          }
          case 'paragraph':
            return (
              <p key={index}>
                <MarkdownInline text={block.text} />
              </p>
            );
          case 'list':
            return (
              <ul key={index} className="grid list-disc gap-1 pl-5">
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>
                    <MarkdownInline text={item} />
                  </li>
                ))}
              </ul>
            );
          case 'code': {
            const fence = FENCE_LANGUAGES[block.language];
            return fence ? (
              <CodeBlock
                key={index}
                code={block.code}
                language={fence.language}
                label={fence.label}
              />
            ) : (
              <pre
                key={index}
                className="overflow-x-auto rounded-lg border border-border bg-muted p-3 font-mono text-xs whitespace-pre-wrap break-all"
              >
                {block.code}
              </pre>
            );
          }
        }
      })}
    </div>
  );
}
