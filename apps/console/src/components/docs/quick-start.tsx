import { clientApiHeaders, type ClientLoginRequest } from '@latchkey/contracts';
import { Link } from 'wouter';
import { CodeBlock } from '@/components/code/code-block.tsx';

/** Typed against the contract, so a renamed field breaks the build rather than the docs. */
export const QUICK_START_LOGIN: ClientLoginRequest = {
  username: 'alice',
  password: 'correct horse battery staple',
  version: '1.0.0',
  hwid: 'YOUR_HARDWARE_ID',
};

export function quickStartSnippet(origin: string): string {
  return `const response = await fetch('${origin}/api/v1/login', {
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    '${clientApiHeaders.apiKey}': 'YOUR_API_KEY',
    '${clientApiHeaders.nonce}': crypto.randomUUID(),
  },
  body: JSON.stringify(${JSON.stringify(QUICK_START_LOGIN, null, 2).replaceAll('\n', '\n  ')}),
});
// Check the signature before trusting the answer: see Verifying Signatures.
const answer = await response.json();
console.log(answer.success, answer.code, answer.message);`;
}

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline';

/** The quick start: create an application, copy the API key, call the endpoints. */
export function QuickStart() {
  return (
    <ol className="grid list-decimal gap-4 pl-5 text-sm leading-relaxed">
      <li>
        <strong>Create an application</strong> on the{' '}
        <Link href="/dashboard" className={linkClass}>
          Dashboard
        </Link>{' '}
        (New Application). Each application has its own API key, end users and settings.
      </li>
      <li>
        <strong>Copy the API key</strong> from the dashboard&apos;s table or the application&apos;s
        API Configuration tab, or take a ready-made client with the key already in it from the{' '}
        <Link href="/integration" className={linkClass}>
          Code page
        </Link>
        .
      </li>
      <li className="grid gap-2">
        <span>
          <strong>Call the endpoints</strong> from your program: register your users, then log them
          in, verify them and keep their session alive. A login looks like this:
        </span>
        <CodeBlock
          code={quickStartSnippet(window.location.origin)}
          language="javascript"
          label="login example"
          maxHeight="20rem"
        />
      </li>
    </ol>
  );
}
