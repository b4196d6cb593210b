import clientApiMarkdown from '../../../../../docs/client-api.md?raw';
import { markdownSection } from '@/lib/markdown-blocks.ts';
import { MarkdownView } from './markdown-view.tsx';

/**
 * Remote variables, the application's and each end user's. The reference text is
 * docs/client-api.md's own section, so the page and the repository's reference cannot drift.
 */
export function VariablesGuide() {
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        Change what your program does without shipping a new version: add variables in an
        application&apos;s <em>Variables</em> tab (a kill switch, a download mirror, a feature
        flag), and give each end user settings of their own in their Edit User dialog, where you can
        also make one read-only.
      </p>
      <MarkdownView
        markdown={markdownSection(clientApiMarkdown, 'Remote variables')}
        headingLevel={3}
      />
    </div>
  );
}
