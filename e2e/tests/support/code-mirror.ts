import type { Locator } from '@playwright/test';

/**
 * The whole document of a code box (`codeBox`: its CodeMirror content element). CodeMirror
 * draws only the lines in view (a sample runs to a thousand lines), so the DOM cannot be read
 * for it: this asks the editor itself, the way CodeMirror's own `EditorView.findFromDOM` finds
 * it from the content element (the editor is not reachable from the page's globals). Pinned by
 * the lockfile; a CodeMirror upgrade that moves it makes this throw, never pass.
 */
export async function codeBoxText(codeBox: Locator): Promise<string> {
  return codeBox.evaluate((content) => {
    type Tile = { root?: { view?: { state: { doc: { toString(): string } } } } };
    const legacy = content as unknown as { cmView?: { rootView?: Tile['root'] } };
    const view =
      (content as unknown as { cmTile?: Tile }).cmTile?.root?.view ?? legacy.cmView?.rootView?.view;
    if (!view) throw new Error('no CodeMirror view behind the code box');
    return view.state.doc.toString();
  });
}
