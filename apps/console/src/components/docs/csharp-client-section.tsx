import { Link } from 'wouter';
import { CodeBlock } from '@/components/code/code-block.tsx';
import { QueryView } from '@/components/ui/query-view.tsx';
import { useSampleTemplate } from '@/hooks/use-samples.ts';
import { extractCSharpType } from '@/lib/csharp-types.ts';

/** The login form's class in the C# sample: LoginForm, or any *Login*Form. */
export const LOGIN_FORM_CLASS = /Login\w*Form$/;

/**
 * The full C# client and the WinForms login form example, both taken from the C# sample
 * template itself (placeholders unfilled), so the docs show the code that is compiled and
 * tested rather than a copy of it.
 */
export function CSharpClientSection() {
  const templateQuery = useSampleTemplate('csharp');
  return (
    <QueryView
      query={templateQuery}
      loadingLabel="Loading the C# client…"
      loadingClassName="grid gap-3"
      skeletons={['h-96 w-full']}
      errorTitle="Error loading the C# client"
      fetchErrorMessage="Failed to load the C# sample"
    >
      {({ code, filename }) => <CSharpClient code={code} filename={filename} />}
    </QueryView>
  );
}

function CSharpClient({ code, filename }: { code: string; filename: string }) {
  const loginForm = extractCSharpType(code, LOGIN_FORM_CLASS);
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        The placeholders (<code className="font-mono">YOUR_API_KEY</code> and the others) are filled
        in for you on the{' '}
        <Link
          href="/integration"
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Code page
        </Link>
        , for the application you choose.
      </p>
      <div className="grid gap-2">
        <h3 className="text-base font-semibold">
          Full C# client class <span className="font-mono text-sm font-normal">({filename})</span>
        </h3>
        <CodeBlock code={code} language="csharp" label="C# client" />
      </div>
      <div className="grid gap-2">
        <h3 className="text-base font-semibold">WinForms login form example</h3>
        {loginForm ? (
          <CodeBlock code={loginForm} language="csharp" label="login form" maxHeight="24rem" />
        ) : (
          <p className="text-sm text-muted-foreground">
            The login form is part of the full client above.
          </p>
        )}
      </div>
    </div>
  );
}
