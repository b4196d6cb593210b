import { waitFor } from '@testing-library/react';

// jsdom has no layout: CodeMirror measures text ranges, which jsdom's Range cannot.
Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

interface CodeMirrorView {
  state: { doc: { length: number; toString(): string } };
  dispatch(spec: {
    changes: { from: number; to: number; insert: string };
    userEvent: string;
  }): void;
}

/** The real CodeMirror view behind the code box named `label`, once the lazy editor is in. */
async function findCodeMirrorView(label: string): Promise<CodeMirrorView> {
  return waitFor(() => {
    const content = document.querySelector<HTMLElement>(`.cm-content[aria-label="${label}"]`);
    if (!content) throw new Error(`no code box labelled ${label}`);
    const view = (content as unknown as { cmTile?: { root?: { view?: CodeMirrorView } } }).cmTile
      ?.root?.view;
    if (!view) throw new Error('no CodeMirror view behind the code box');
    return view;
  });
}

/** The whole text of a code box, line breaks included (its DOM holds only the visible lines). */
export async function readCodeBox(label: string): Promise<string> {
  return (await findCodeMirrorView(label)).state.doc.toString();
}

/**
 * Types into a code box the way CodeMirror's input handling would: a transaction on its view
 * (jsdom has no layout for key events).
 */
export async function replaceCodeBoxText(label: string, text: string): Promise<void> {
  const view = await findCodeMirrorView(label);
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    userEvent: 'input.type',
  });
}
