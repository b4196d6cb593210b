import { StreamLanguage } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import type { sampleLanguageCatalogue } from '@latchkey/contracts';

/** The samples' four highlight modes, and TypeScript for the code editor page's system files. */
export type CodeLanguage =
  | (typeof sampleLanguageCatalogue)[keyof typeof sampleLanguageCatalogue]['highlight']
  | 'typescript';

/**
 * A language's CodeMirror support, imported on demand: a page showing only C# never
 * downloads the Python or C++ parsers.
 */
export async function loadLanguageSupport(language: CodeLanguage): Promise<Extension> {
  switch (language) {
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'typescript':
      return (await import('@codemirror/lang-javascript')).javascript({ typescript: true });
    case 'cpp':
      return (await import('@codemirror/lang-cpp')).cpp();
    case 'csharp': {
      // No Lezer grammar for C# exists; the legacy clike mode highlights it well enough.
      const { csharp } = await import('@codemirror/legacy-modes/mode/clike');
      return StreamLanguage.define(csharp);
    }
  }
}
