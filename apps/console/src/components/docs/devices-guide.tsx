import clientApiMarkdown from '../../../../../docs/client-api.md?raw';
import { markdownSection } from '@/lib/markdown-blocks.ts';
import { MarkdownView } from './markdown-view.tsx';

const DEVICES_SECTION = 'Devices: several machines per user, and self-service resets';

/**
 * Devices, self-service releases and the end-user portal. The reference text is
 * docs/client-api.md's own sections, so the page and the repository's reference cannot drift.
 */
export function DevicesGuide() {
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        With HWID lock on, each end user may use as many machines as the application&apos;s{' '}
        <em>Device limit</em> allows (a plan can raise it). A user&apos;s devices are listed in
        their Edit User dialog, where you can remove one or all. Turn on{' '}
        <em>Let users release their own devices</em> in the application&apos;s settings and your
        program can offer &ldquo;release this device&rdquo;; turn on the <em>end-user portal</em>{' '}
        and your users can also do it, redeem a licence key and change their password on a page of
        their own, at the link shown in the settings.
      </p>
      <MarkdownView
        markdown={markdownSection(clientApiMarkdown, DEVICES_SECTION)}
        headingLevel={3}
      />
    </div>
  );
}
