import { DEFAULT_APPLICATION_VERSION, type Application } from '@latchkey/contracts';
import { useId } from 'react';
import { ApiKeyField } from '@/components/applications/api-key-field.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';

/**
 * After a selection the page shows the API key and the base URL, the two values the samples
 * embed (with the version).
 */
export function ConnectionDetails({
  application,
  baseUrl,
}: {
  application: Application;
  /** The address the rendered samples call; undefined until the server has said it. */
  baseUrl: string | undefined;
}) {
  const id = useId();

  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_auto]">
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${id}-api-key`}>API Key</Label>
        <ApiKeyField
          id={`${id}-api-key`}
          secret={application.apiKey}
          copyToastMessage="API key copied to clipboard"
        />
      </div>
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${id}-base-url`}>Base URL</Label>
        {baseUrl === undefined ? (
          <Skeleton className="h-9 w-full" />
        ) : (
          <div className="flex items-center gap-1">
            <Input
              id={`${id}-base-url`}
              value={baseUrl}
              readOnly
              spellCheck={false}
              className="font-mono"
            />
            <CopyButton value={baseUrl} label="Copy base URL" toastMessage="Base URL copied" />
          </div>
        )}
      </div>
      <div className="grid gap-1.5">
        <span className="text-sm leading-none font-medium">Version</span>
        <span className="flex h-9 items-center font-mono text-sm" data-testid="sample-version">
          {application.version || DEFAULT_APPLICATION_VERSION}
        </span>
      </div>
    </div>
  );
}
