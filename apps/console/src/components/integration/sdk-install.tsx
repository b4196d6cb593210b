import { sdkInstallLines, type SampleLanguage } from '@latchkey/contracts';
import { Download, Package } from 'lucide-react';
import { formatFileSize } from '@/components/files/file-display.ts';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useSdkPackages } from '@/hooks/use-sdk-packages.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';

export const SDK_PACKAGES_FETCH_ERROR = 'Failed to list the SDK packages';

/** The SDK's own name in each language, which the samples' tab labels (windows, consoles) are not. */
const sdkLanguageLabels: Record<SampleLanguage, string> = {
  csharp: 'C#',
  python: 'Python',
  nodejs: 'Node.js',
  cpp: 'C++',
};

/**
 * How to add the client library to a vendor's own program, from the package this server
 * serves: the one-line install (two or three for NuGet and CMake, which need the file first),
 * a copy button and the file itself.
 */
export function SdkInstall({
  language,
  description = 'A client library for your own program: every call, its signed answer checked, offline licences and the heartbeat. The sample below shows the same calls in a whole program.',
}: {
  language: SampleLanguage;
  description?: string;
}) {
  const packagesQuery = useSdkPackages();
  const label = sdkLanguageLabels[language];
  const sdk = packagesQuery.data?.packages.find((entry) => entry.language === language);
  const url = sdk ? new URL(`/sdk/${sdk.file}`, window.location.origin).href : '';
  const command = sdk ? sdkInstallLines(language, url, sdk).join('\n') : '';

  return (
    <SectionCard
      role="region"
      aria-label={`Install the ${label} SDK`}
      icon={Package}
      title={`Install the ${label} SDK`}
      description={description}
      contentClassName="grid gap-3"
    >
      {packagesQuery.isPending ? (
        <div role="status" aria-busy="true">
          <span className="sr-only">Loading the SDK packages…</span>
          <Skeleton className="h-16 w-full" />
        </div>
      ) : packagesQuery.isError ? (
        <LoadErrorState
          title="Error loading the SDK packages"
          description={getErrorToastMessage(packagesQuery.error, SDK_PACKAGES_FETCH_ERROR)}
          isRetrying={packagesQuery.isFetching}
          onRetry={() => void packagesQuery.refetch()}
        />
      ) : !sdk ? (
        <p className="text-sm text-muted-foreground">
          This server has no {label} package built. Run <code>npm run build:sdks</code> on the
          server, with the {label} toolchain installed, to build it.
        </p>
      ) : (
        <>
          <div className="flex items-start gap-2">
            {/* A figure, which may carry a name (a bare <pre> is generic and may not). No width of
                its own (w-0, then grown), so a long line scrolls inside it on a phone instead of
                widening the page. */}
            <figure aria-label="Install command" className="m-0 w-0 flex-1">
              {/* Focusable: a line wider than the box scrolls, by keyboard too. */}
              <pre
                tabIndex={0}
                className="overflow-x-auto rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60 border bg-muted px-3 py-2 font-mono text-sm whitespace-pre"
              >
                <code>{command}</code>
              </pre>
            </figure>
            <CopyButton
              value={command}
              label={`Copy the ${label} install command`}
              toastMessage="Install command copied"
            />
          </div>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground">
            <span>
              <span className="font-mono">{sdk.name}</span> {sdk.version},{' '}
              {formatFileSize(sdk.size)}
            </span>
            <Button variant="outline" size="sm" asChild>
              <a href={url} download={sdk.file}>
                <Download aria-hidden="true" />
                Download {sdk.file}
              </a>
            </Button>
          </div>
        </>
      )}
    </SectionCard>
  );
}
