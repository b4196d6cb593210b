import clientApiMarkdown from '../../../../../docs/client-api.md?raw';
import { markdownSection } from '@/lib/markdown-blocks.ts';
import { MarkdownView } from './markdown-view.tsx';

/** What a program sends and gets back when a buyer logs in with a key alone. */
const LICENSE_LOGIN_EXAMPLE = `POST /api/v1/license/login
x-api-key: <your application's API key>

{ "license_key": "7KQ2M-9XH4T-CW3RB-NJ8FD-5VPLE", "hwid": "MACHINE-1234" }

→ {
  "success": true,
  "code": "SUCCESS",
  "message": "Login successful",
  "user_id": "…",
  "username": "key-3f2b…",
  "session_token": "…",
  "entitlements": ["EXPORT_PDF", "PRO"],
  "subscriptions": [{ "plan": "Pro Monthly", "expires_at": "2025-05-14T12:00:00.000Z" }]
}

POST /api/v1/verify
{ "user_id": "…", "entitlements": ["PRO", "TEAM"] }

→ { "success": false, "code": "ENTITLEMENTS_MISSING", "missing_entitlements": ["TEAM"], … }`;

/**
 * Plans, keys and subscriptions, and the client calls that use them. The text is
 * docs/client-api.md's own sections, so the page and the repository's reference cannot drift.
 */
export function LicensesGuide() {
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        Sell your program with licence keys: create <strong>plans</strong> in an application&apos;s
        Plans tab, generate <strong>keys</strong> of a plan in its Licences tab, and let buyers
        redeem them. Each user&apos;s <strong>subscriptions</strong> and entitlements show in their
        Edit User dialog, where you can also grant, extend or remove one by hand. Turn on{' '}
        <em>Require a licence key</em> in the application&apos;s settings to accept only users who
        hold an active subscription.
      </p>
      <MarkdownView
        markdown={markdownSection(clientApiMarkdown, 'Licences: plans, keys and subscriptions')}
        headingLevel={3}
      />
      <div className="grid gap-3">
        <h3 className="text-lg font-semibold">Client calls</h3>
        <ul className="grid list-disc gap-1.5 pl-5 text-sm">
          <li>
            <code className="font-mono">POST /api/v1/register</code> takes an optional{' '}
            <code className="font-mono">license_key</code> (required when the application requires a
            licence), redeemed in the same transaction that creates the user.
          </li>
          <li>
            <code className="font-mono">POST /api/v1/license/redeem</code> adds a key to an existing
            account (username, password, key).
          </li>
          <li>
            <code className="font-mono">POST /api/v1/license/login</code> logs in with a key alone.
          </li>
          <li>
            <code className="font-mono">POST /api/v1/license/checkout</code> gives a live session an
            offline licence: one signed line the program verifies without the network until it
            lapses (see Offline licences below).
          </li>
          <li>
            Login and verify answers carry <code className="font-mono">entitlements</code> and{' '}
            <code className="font-mono">subscriptions</code>; verify checks the{' '}
            <code className="font-mono">entitlements</code> you send.
          </li>
          <li>
            New codes: <code className="font-mono">LICENSE_REQUIRED</code>,{' '}
            <code className="font-mono">LICENSE_INVALID</code>,{' '}
            <code className="font-mono">LICENSE_USED</code>,{' '}
            <code className="font-mono">LICENSE_BANNED</code>,{' '}
            <code className="font-mono">LICENSE_EXPIRED</code>,{' '}
            <code className="font-mono">NO_ACTIVE_SUBSCRIPTION</code>,{' '}
            <code className="font-mono">ENTITLEMENTS_MISSING</code> and{' '}
            <code className="font-mono">HWID_REQUIRED</code> (see Response Codes).
          </li>
        </ul>
        <h4 className="font-semibold">
          <code className="font-mono">POST /api/v1/license/redeem</code>
        </h4>
        <MarkdownView
          markdown={markdownSection(clientApiMarkdown, '`POST /api/v1/license/redeem`')}
          headingLevel={4}
        />
        <h4 className="font-semibold">
          <code className="font-mono">POST /api/v1/license/login</code>
        </h4>
        <MarkdownView
          markdown={markdownSection(clientApiMarkdown, '`POST /api/v1/license/login`')}
          headingLevel={4}
        />
        <h4 className="font-semibold">
          <code className="font-mono">POST /api/v1/license/checkout</code>
        </h4>
        <MarkdownView
          markdown={markdownSection(clientApiMarkdown, '`POST /api/v1/license/checkout`')}
          headingLevel={4}
        />
      </div>
      <div className="grid gap-2">
        <h3 className="text-lg font-semibold">Usage meters</h3>
        <MarkdownView
          markdown={markdownSection(clientApiMarkdown, 'Usage meters')}
          headingLevel={4}
        />
      </div>
      <div className="grid gap-2">
        <h3 className="text-lg font-semibold">Offline licences</h3>
        <MarkdownView
          markdown={markdownSection(clientApiMarkdown, 'Offline licences')}
          headingLevel={4}
        />
      </div>
      <div className="grid gap-2">
        <h3 className="text-lg font-semibold">
          Example: log in with a key, then check entitlements
        </h3>
        <MarkdownView markdown={`\`\`\`http\n${LICENSE_LOGIN_EXAMPLE}\n\`\`\``} headingLevel={4} />
      </div>
    </div>
  );
}
