import { MANAGEMENT_API_PREFIX } from '@latchkey/contracts';
import { BookOpen, SquareTerminal } from 'lucide-react';
import { CopyableSnippet, FoldedHelpCard } from '@/components/ui/folded-help-card.tsx';

/** The generated reference (Scalar) lists every management operation and its scope. */
export const API_REFERENCE_PATH = '/api/reference';

/** A first call with a token, against this deployment's own address. */
export function buildUsageSnippet(origin: string): string {
  return `curl ${origin}${MANAGEMENT_API_PREFIX}/applications \\
  -H "Authorization: Bearer $LATCHKEY_TOKEN"`;
}

/** How a script calls the management API with a token, folded away until asked. */
export function ApiTokenUsageCard() {
  const snippet = buildUsageSnippet(window.location.origin);
  return (
    <FoldedHelpCard
      icon={SquareTerminal}
      title="Use a token"
      summary={
        <>
          Send it as a bearer token to the management API at{' '}
          <code className="font-mono text-xs break-all">{MANAGEMENT_API_PREFIX}</code>.
        </>
      }
    >
      <p className="text-sm text-muted-foreground">
        Every call carries <code>Authorization: Bearer lk_…</code>. Answers are JSON with the same
        fields as the console&apos;s; refusals are problem details with a stable <code>code</code>.
        Keep the token out of your source code: read it from the environment, as here.
      </p>
      <CopyableSnippet code={snippet} copyLabel="Copy example" />
      <a
        href={API_REFERENCE_PATH}
        className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
      >
        <BookOpen className="size-4" aria-hidden="true" />
        Every operation and the scope it needs, in the API reference
      </a>
    </FoldedHelpCard>
  );
}
