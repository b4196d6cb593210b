import clientApiMarkdown from '../../../../../docs/client-api.md?raw';
import { markdownSection } from '@/lib/markdown-blocks.ts';
import { MarkdownView } from './markdown-view.tsx';

/**
 * Files, download URLs and the update channel. The reference text is docs/client-api.md's own
 * section, so the page and the repository's reference cannot drift.
 */
export function DownloadsGuide() {
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        Upload installers and updates in an application&apos;s <em>Files</em> tab. Your program asks
        for a short-lived download link, checks the SHA-256 of what it downloaded, and, when you
        mark a file as the <em>current release</em>, learns from a version mismatch where the new
        version is.
      </p>
      <MarkdownView
        markdown={markdownSection(clientApiMarkdown, 'Downloads and updates')}
        headingLevel={3}
      />
    </div>
  );
}
