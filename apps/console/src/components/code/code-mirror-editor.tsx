import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Annotation, Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef, type CSSProperties } from 'react';
import { cn } from '@/lib/utils.ts';
import type { CodeEditorProps } from './code-editor.tsx';
import { loadLanguageSupport } from './code-languages.ts';

/**
 * Token colours are CSS variables (index.css, one set per theme), so switching the console's
 * theme recolours the code without reconfiguring the editor; each keeps 4.5:1 on the box.
 */
const highlightStyle = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.modifier, tags.controlKeyword, tags.operatorKeyword],
    color: 'var(--code-keyword)',
  },
  {
    tag: [tags.string, tags.special(tags.string), tags.regexp, tags.character],
    color: 'var(--code-string)',
  },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--code-number)' },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment, tags.docComment],
    color: 'var(--code-comment)',
    fontStyle: 'italic',
  },
  {
    tag: [tags.typeName, tags.className, tags.namespace, tags.standard(tags.name)],
    color: 'var(--code-type)',
  },
  {
    tag: [
      tags.function(tags.variableName),
      tags.function(tags.propertyName),
      tags.definition(tags.variableName),
    ],
    color: 'var(--code-function)',
  },
  { tag: [tags.meta, tags.processingInstruction, tags.annotation], color: 'var(--code-meta)' },
]);

const editorTheme = EditorView.theme({
  '&': {
    backgroundColor: 'var(--muted)',
    color: 'var(--foreground)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius-lg, 0.75rem)',
    fontSize: '0.8125rem',
    maxHeight: 'var(--code-editor-max-height)',
  },
  '&.cm-focused': {
    outline: '3px solid color-mix(in oklab, var(--ring) 60%, transparent)',
    outlineOffset: '1px',
  },
  '.cm-scroller': {
    overflow: 'auto',
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    lineHeight: '1.6',
  },
  '.cm-content': { caretColor: 'var(--foreground)', padding: '0.75rem 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--foreground)' },
  '.cm-gutters': {
    backgroundColor: 'var(--muted)',
    color: 'var(--muted-foreground)',
    borderRight: '1px solid var(--border)',
    borderTopLeftRadius: 'var(--radius-lg, 0.75rem)',
    borderBottomLeftRadius: 'var(--radius-lg, 0.75rem)',
  },
  '.cm-activeLine, .cm-activeLineGutter': {
    backgroundColor: 'color-mix(in oklab, var(--foreground) 6%, transparent)',
  },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'color-mix(in oklab, var(--ring) 30%, transparent)' },
  '.cm-matchingBracket': { outline: '1px solid var(--ring)', backgroundColor: 'transparent' },
});

/** Marks the editor's own copies of the `value` prop, which are not edits to report. */
const fromProps = Annotation.define<boolean>();

function editability(isReadOnly: boolean, label: string): Extension {
  return [
    EditorState.readOnly.of(isReadOnly),
    // Still focusable when read-only, so keyboard users can scroll, select and copy.
    EditorView.contentAttributes.of({
      'aria-label': label,
      'aria-readonly': String(isReadOnly),
    }),
    isReadOnly
      ? []
      : [
          highlightActiveLine(),
          highlightActiveLineGutter(),
          // Tab indents while editing; Esc then Tab leaves (CodeMirror's tab-focus mode).
          keymap.of([indentWithTab]),
        ],
  ];
}

/** The CodeMirror behind CodeEditor; imported lazily, see code-editor.tsx. */
export default function CodeMirrorEditor({
  value,
  onChange,
  language,
  label,
  isReadOnly = false,
  maxHeight = '32rem',
  className,
}: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const compartmentsRef = useRef({ language: new Compartment(), editability: new Compartment() });
  const onChangeRef = useRef(onChange);
  const initialRef = useRef({ value, isReadOnly, label });

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const { value: doc, isReadOnly: readOnly, label: name } = initialRef.current;
    const compartments = compartmentsRef.current;
    const view = new EditorView({
      parent: hostRef.current!,
      state: EditorState.create({
        doc,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          bracketMatching(),
          syntaxHighlighting(highlightStyle),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          editorTheme,
          compartments.language.of([]),
          compartments.editability.of(editability(readOnly, name)),
          EditorView.updateListener.of((update) => {
            const isOwnEdit = update.transactions.some(
              (transaction) => transaction.docChanged && !transaction.annotation(fromProps),
            );
            if (isOwnEdit) onChangeRef.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    // The scroller is what scrolls a long line or file: a keyboard user must be able to reach
    // it even where the content is not the focus target (axe: scrollable-region-focusable).
    view.scrollDOM.tabIndex = 0;
    view.scrollDOM.setAttribute('role', 'region');
    view.scrollDOM.setAttribute('aria-label', `${name} (scroll area)`);
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.doc.toString() === value) return;
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: value },
      annotations: fromProps.of(true),
    });
  }, [value]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartmentsRef.current.editability.reconfigure(editability(isReadOnly, label)),
    });
  }, [isReadOnly, label]);

  useEffect(() => {
    let isCurrent = true;
    void loadLanguageSupport(language).then((support) => {
      if (isCurrent) {
        viewRef.current?.dispatch({
          effects: compartmentsRef.current.language.reconfigure(support),
        });
      }
    });
    return () => {
      isCurrent = false;
    };
  }, [language]);

  return (
    <div
      ref={hostRef}
      data-testid="code-editor"
      data-read-only={isReadOnly}
      className={cn('min-w-0', className)}
      style={{ '--code-editor-max-height': maxHeight } as CSSProperties}
    />
  );
}
