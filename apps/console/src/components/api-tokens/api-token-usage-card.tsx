import { MANAGEMENT_API_PREFIX } from '@latchkey/contracts';
import { BookOpen, ChevronRight, SquareTerminal } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';

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
    <Card className="py-0">
      <details className="group">
        <summary className="flex cursor-pointer list-none items-center gap-3 rounded-xl px-6 py-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
          <SquareTerminal className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <span className="grid flex-1 gap-0.5">
            <span className="font-semibold">Use a token</span>
            <span className="text-sm text-muted-foreground">
              Send it as a bearer token to the management API at{' '}
              <code className="font-mono text-xs break-all">{MANAGEMENT_API_PREFIX}</code>.
            </span>
          </span>
          <ChevronRight
            className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90 motion-reduce:transition-none"
            aria-hidden="true"
          />
        </summary>
        <CardContent className="grid gap-3 pb-6">
          <p className="text-sm text-muted-foreground">
            Every call carries <code>Authorization: Bearer lk_…</code>. Answers are JSON with the
            same fields as the console&apos;s; refusals are problem details with a stable{' '}
            <code>code</code>. Keep the token out of your source code: read it from the environment,
            as here.
          </p>
          <div className="relative min-w-0">
            <pre className="overflow-auto rounded-lg border border-border bg-muted/40 p-4 pr-12 font-mono text-xs leading-relaxed">
              <code>{snippet}</code>
            </pre>
            <CopyButton
              value={snippet}
              label="Copy example"
              toastMessage="Code copied to clipboard"
              className="absolute top-2 right-2"
            />
          </div>
          <a
            href={API_REFERENCE_PATH}
            className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
          >
            <BookOpen className="size-4" aria-hidden="true" />
            Every operation and the scope it needs, in the API reference
          </a>
        </CardContent>
      </details>
    </Card>
  );
}
