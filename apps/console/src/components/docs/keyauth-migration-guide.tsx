import type { ReactNode } from 'react';
import { CopyableSnippet } from '@/components/ui/folded-help-card.tsx';
import { KEYAUTH_MIGRATION_SECTION } from '@/lib/docs-links.ts';
import { INLINE_CODE_CLASS, MarkdownInline } from './markdown-view.tsx';

/** A subsection's anchor: under the section's own, so a link can point at the part it means. */
const anchor = (part: string) => `${KEYAUTH_MIGRATION_SECTION.id}-${part}`;

/** What a KeyAuth request type sends and what Latchkey does with it; text in the docs' Markdown. */
interface RequestType {
  types: readonly string[];
  fields: readonly string[];
  does: string;
}

/**
 * KeyAuth's request types, condensed from docs/keyauth-migration.md (the page's test checks the
 * types and fields against that file's table, so a type added there is missed here loudly).
 */
export const KEYAUTH_REQUEST_TYPES: readonly RequestType[] = [
  {
    types: ['init'],
    fields: ['ver', 'hash', 'enckey'],
    does: "Opens a session (`sessionid`, 10 characters) for the application's _Session lifetime_ (6 hours by default). A `ver` other than the application's answers `invalidver` with `download`, the current release's five-minute URL (empty without one).",
  },
  {
    types: ['register'],
    fields: ['username', 'pass', 'key', 'email', 'hwid'],
    does: "v1's register (the key redeemed in the same transaction), then a login on the session, as KeyAuth does.",
  },
  {
    types: ['login'],
    fields: ['username', 'pass', 'hwid'],
    does: "v1's login, then a client session bound to the KeyAuth session; `info` as KeyAuth's.",
  },
  {
    types: ['license'],
    fields: ['key', 'hwid'],
    does: "v1's key login (`license/login`): the first use creates the user.",
  },
  {
    types: ['upgrade'],
    fields: ['username', 'key'],
    does: 'Redeems the key onto the account. KeyAuth sends no password, so every attempt counts against the licence-key throttles.',
  },
  {
    types: ['check'],
    fields: [],
    does: "The session's heartbeat: valid while its client session is open and its user in good standing.",
  },
  {
    types: ['logout'],
    fields: [],
    does: 'Ends the client session; the KeyAuth session stays open, no longer validated.',
  },
  {
    types: ['changeUsername'],
    fields: ['newUsername'],
    does: 'Renames the user and logs the session out.',
  },
  {
    types: ['var'],
    fields: ['varid'],
    does: "An application variable, its value as the answer's `message`; one that requires a session needs a validated one.",
  },
  {
    types: ['getvar', 'setvar'],
    fields: ['var', 'data'],
    does: "The session's user's own variables (read-only ones refused).",
  },
  {
    types: ['checkblacklist'],
    fields: ['hwid'],
    does: "KeyAuth's inverted answer: `success: true` means the address or HWID is blacklisted.",
  },
  {
    types: ['ban'],
    fields: ['reason', 'hwid'],
    does: "Disables the session's user, blacklists the HWID (sent, else the last login's) with the reason and ends every session of the user; the `user_banned` event reaches the activity log and webhooks.",
  },
  {
    types: ['log'],
    fields: ['message', 'pcuser'],
    does: "A `client_log` row in the activity log (and to the application's webhooks that take it).",
  },
  {
    types: ['file'],
    fields: ['fileid'],
    does: "The file's bytes as hex in `contents`, up to 5 MB; a larger file answers a message pointing at v1's `POST /api/v1/file`.",
  },
  {
    types: ['fetchStats'],
    fields: [],
    does: "`appinfo`: users, online sessions and keys (counted every 30 s at most), version, and the end-user portal's address as `customerPanelLink` when the portal is on.",
  },
  {
    types: ['fetchOnline'],
    fields: [],
    does: 'The names of users with a session online now (a heartbeat within 90 s), masked after their third character, at most 100.',
  },
  {
    types: ['forgot'],
    fields: ['username', 'email'],
    does: "v1's password reset: a link to the account's own address; the same answer whatever the account.",
  },
];

/** The lines a program built on each KeyAuth library changes. */
const LIBRARY_NOTES = [
  "**C#** (`KeyAuth.cs` and `Program.cs` of KeyAuth's example): the `name`, `ownerid`, `secret` and `version` arguments of `new api(...)`, and the URL string in `KeyAuth.cs`; for 1.3, the public-key constant the answer is verified with, in `KeyAuth.cs`.",
  "**C++** (KeyAuth's `auth.cpp` library and the example's `main.cpp`): `name`, `ownerid`, `version` and `url` in `main.cpp`; the Ed25519 public key constant in the library's source. The prebuilt `library_x64.lib` has KeyAuth's key compiled in: build the library from its source with your key.",
  '**Python** (`keyauth.py` and `main.py`): `name`, `ownerid` and `version` in `main.py`; the URL and the hex key given to `VerifyKey` in `keyauth.py`.',
] as const;

/** How every answer is built, so a KeyAuth client accepts it. */
const ANSWER_RULES = [
  "**JSON as PHP writes it** (`json_encode`): every character outside ASCII as `\\uXXXX`, `/` as `\\/` (KeyAuth's C# client reads answers in the system's code page and breaks on raw UTF-8). Numbers that KeyAuth sends as strings are strings (`createdate`, `lastlogin`, `expiry`, the `appinfo` counts); `timeleft` is a number.",
  'Every answer echoes the request\'s `ownerid`; a success carries `"code": 68` (KeyAuth\'s C++ library exits without it) and a `nonce`.',
  '**API 1.2**: the `signature` header is the hex HMAC-SHA256 of the exact body, keyed by the secret for `init` and by `{enckey}-{secret}` afterwards (`enckey` as the client sent it with `init`).',
  "**API 1.3**: `x-signature-ed25519` (hex) over `x-signature-timestamp + body`, with the application's own Ed25519 key; the timestamp is the answer's, and clients refuse one older than 20 seconds.",
  "**Refusals are HTTP 200**: refusals, throttles and malformed input answer `success: false` with a message, since KeyAuth's C# client throws on any other status; a throttled answer also carries `Retry-After`. An owner id and name that name no application with compatibility on answer the bare, unsigned body `KeyAuth_Invalid`.",
  "A HWID is trimmed of surrounding white space before any rule sees it (KeyAuth's Python client on Linux sends `/etc/machine-id` with its newline), so it matches the same device and blacklist entry as a v1 call.",
] as const;

/** Where Latchkey answers otherwise than KeyAuth, and why. */
const DIFFERENCES = [
  '**Not offered**: chat (`chatget`, `chatsend`), the webhook proxy (`webhook`) and two-factor sign-in (`2faenable`, `2fadisable`) answer KeyAuth\'s failure shape saying so. An unknown `type` answers KeyAuth\'s own "The value inputted for type paramater was not found".',
  "**Licence keys are never answered**: `info.subscriptions[].key` is `null` (a key is a bearer secret). A user with no subscription is answered one named `default` that ends when the account does, since KeyAuth's example programs read `subscriptions[0]`.",
  "**Levels**: a plan's KeyAuth `level` is its entitlement `LEVEL_N` (the importer keeps KeyAuth's levels that way), else `1`.",
  '**Password resets**: `forgot` answers the same for every account, where KeyAuth says whether the username or address matched; the link goes to the address on the account.',
  "**Bans**: `ban` does not blacklist the caller's IP address, as KeyAuth does: addresses are shared by offices and carriers. Add one from the activity log if you want it.",
  '**Who is online**: `fetchOnline` masks names after three characters (KeyAuth after ten).',
  "**One client session per KeyAuth session**: logging in again on the same `sessionid` ends the previous login's session; the application's session limit applies as to v1 programs.",
  '**Versions**: `login`, `license` and `register` carry no version in KeyAuth; `init` checks it.',
  "**Sessions are Latchkey's**: revoking a user's sessions from the console, pausing or expiring them, or releasing their device ends the KeyAuth session's validity at the next request.",
  '**A separate client API port**: with `CLIENT_API_PORT` set, the KeyAuth paths are served with `/api/v1` on that port.',
] as const;

/** A terminal check of the switch, before any program is rebuilt. */
export function keyauthInitCheck(origin: string): string {
  return `curl -i ${origin}/api/1.3/ \\
  --data-urlencode 'type=init' \\
  --data-urlencode 'name=YOUR_KEYAUTH_NAME' \\
  --data-urlencode 'ownerid=YOUR_OWNER_ID'`;
}

const codeClass = 'font-mono text-xs';

function Subsection({
  part,
  title,
  children,
}: {
  part: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="grid min-w-0 gap-3">
      <h3 id={anchor(part)} className="scroll-mt-20 text-lg font-semibold">
        {title}
      </h3>
      {children}
    </div>
  );
}

/** A table that scrolls sideways inside its own box on a narrow screen, never the page. */
function DocsTable({
  caption,
  columns,
  minWidth,
  testId,
  children,
}: {
  caption: string;
  columns: readonly string[];
  minWidth: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={caption}
      className="overflow-x-auto rounded-lg border border-border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
    >
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60 text-xs text-muted-foreground">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="align-top">{children}</tbody>
      </table>
    </div>
  );
}

function BulletList({ items }: { items: readonly string[] }) {
  return (
    <ul className="grid list-disc gap-1.5 pl-5 text-sm leading-relaxed">
      {items.map((item) => (
        <li key={item}>
          <MarkdownInline text={item} />
        </li>
      ))}
    </ul>
  );
}

/**
 * Moving a program built on KeyAuth's client libraries to Latchkey: the switch, what changes
 * in the program, how answers are made, the request types and where Latchkey differs.
 * Condensed from docs/keyauth-migration.md, which has the whole of it.
 */
export function KeyauthMigrationGuide() {
  const origin = window.location.origin;
  const programChanges: [constant: ReactNode, api12: ReactNode, api13: ReactNode][] = [
    [
      'URL',
      <code className={`${codeClass} wrap-anywhere`}>{origin}/api/1.2/</code>,
      <code className={`${codeClass} wrap-anywhere`}>{origin}/api/1.3/</code>,
    ],
    [
      <code className={codeClass}>name</code>,
      <>
        the card&apos;s <em>Application name (KeyAuth)</em>
      </>,
      'the same',
    ],
    [
      <code className={codeClass}>ownerid</code>,
      <>
        the card&apos;s <em>Owner ID</em>
      </>,
      'the same',
    ],
    [
      <code className={codeClass}>secret</code>,
      "the card's secret (KeyAuth's, if you pasted it)",
      'not used',
    ],
    [
      'the public key',
      'not used',
      <>
        the application&apos;s <strong>public key</strong> (64 hex characters, shown on the card)
      </>,
    ],
    [
      <code className={codeClass}>version</code>,
      "unchanged: it must equal the application's version in Latchkey",
      'the same',
    ],
  ];

  return (
    <div className="grid gap-8">
      <p className="text-sm leading-relaxed text-muted-foreground">
        Latchkey answers KeyAuth&apos;s own client libraries at{' '}
        <code className={INLINE_CODE_CLASS}>/api/1.2/</code> and{' '}
        <code className={INLINE_CODE_CLASS}>/api/1.3/</code>. A program written against
        KeyAuth&apos;s C#, C++ or Python library keeps every line of its login code; from the switch
        on, its calls run Latchkey&apos;s rules (throttles, blacklist, HWID lock and devices,
        pauses, expiry, plans and keys), write the same activity rows and fire the same webhooks as
        a program on <code className={INLINE_CODE_CLASS}>/api/v1</code>.
      </p>

      <Subsection part="steps" title="The switch, step by step">
        <ol className="grid list-decimal gap-3 pl-5 text-sm leading-relaxed">
          <li>
            <strong>Import.</strong> With the <strong>Import</strong> button of the
            application&apos;s page, upload KeyAuth&apos;s exports (users, keys, and whatever else
            yours holds: subscriptions, variables, user variables, bans). End users keep their
            passwords: KeyAuth&apos;s bcrypt hashes are accepted and upgraded to argon2id at their
            next login. Where the export carries the application&apos;s{' '}
            <code className={INLINE_CODE_CLASS}>ownerid</code>,{' '}
            <code className={INLINE_CODE_CLASS}>name</code> and{' '}
            <code className={INLINE_CODE_CLASS}>secret</code>, they are filled in for you; otherwise
            copy them from KeyAuth&apos;s dashboard in step 2. Files come as a list to upload again
            on the <em>Files</em> tab (KeyAuth keeps only their URLs): change their ids in the
            program to the new ones.
          </li>
          <li>
            <strong>Turn it on.</strong> In the application&apos;s <em>API Configuration</em> tab,
            card <em>KeyAuth Compatibility</em>, switch on{' '}
            <em>Answer KeyAuth&apos;s client libraries</em>. What is missing is filled in (a
            generated owner ID, the application&apos;s name, a generated secret). To keep the
            program&apos;s constants as they are, enter KeyAuth&apos;s owner ID and name and paste
            KeyAuth&apos;s secret (<strong>Use KeyAuth&apos;s Secret</strong>). The same settings
            are <code className={INLINE_CODE_CLASS}>keyauthCompatibility</code>,{' '}
            <code className={INLINE_CODE_CLASS}>keyauthOwnerId</code>,{' '}
            <code className={INLINE_CODE_CLASS}>keyauthName</code>,{' '}
            <code className={INLINE_CODE_CLASS}>keyauthSecret</code> and{' '}
            <code className={INLINE_CODE_CLASS}>keyauthSessionHours</code> of{' '}
            <code className={INLINE_CODE_CLASS}>PUT /api/applications/{'{id}'}</code> and of the
            management API.
          </li>
          <li>
            <strong>Change the program</strong> (below), rebuild, and ship it through your update
            channel.
          </li>
        </ol>
        <p className="text-sm text-muted-foreground">
          Turning compatibility off answers KeyAuth&apos;s &ldquo;application not found&rdquo; (
          <code className={INLINE_CODE_CLASS}>KeyAuth_Invalid</code>) at once, on every instance.
        </p>
      </Subsection>

      <Subsection part="program" title="What changes in the program">
        <DocsTable
          caption="What changes in a KeyAuth program"
          columns={['In the program', 'API 1.2', 'API 1.3']}
          minWidth="min-w-[20rem]"
          testId="keyauth-program-changes"
        >
          {programChanges.map(([constant, api12, api13], index) => (
            <tr key={index} className="border-t border-border">
              <th scope="row" className="px-3 py-2 font-normal whitespace-nowrap">
                {constant}
              </th>
              <td className="px-3 py-2">{api12}</td>
              <td className="px-3 py-2">{api13}</td>
            </tr>
          ))}
        </DocsTable>
        <BulletList items={LIBRARY_NOTES} />
        <p className="text-sm text-muted-foreground">
          Nothing else changes: the request types, their fields and the answers your code reads are
          KeyAuth&apos;s. Before rebuilding, an <code className={INLINE_CODE_CLASS}>init</code> from
          a terminal shows whether the switch took: it answers{' '}
          <code className={INLINE_CODE_CLASS}>&quot;success&quot;:true</code> and{' '}
          <code className={INLINE_CODE_CLASS}>&quot;code&quot;:68</code>, signed in{' '}
          <code className={INLINE_CODE_CLASS}>x-signature-ed25519</code>.
        </p>
        <CopyableSnippet
          code={keyauthInitCheck(origin)}
          copyLabel="Copy the init check"
          className="whitespace-pre-wrap wrap-anywhere"
        />
      </Subsection>

      <Subsection part="answers" title="How each answer is made">
        <BulletList items={ANSWER_RULES} />
      </Subsection>

      <Subsection part="request-types" title="Request types">
        <DocsTable
          caption="KeyAuth request types"
          columns={['type and fields', 'What Latchkey does']}
          minWidth="min-w-[20rem]"
          testId="keyauth-request-types"
        >
          {KEYAUTH_REQUEST_TYPES.map(({ types, fields, does }) => (
            <tr key={types.join()} className="border-t border-border">
              <th scope="row" className="px-3 py-2 text-left font-normal">
                <code className={`${codeClass} font-semibold whitespace-nowrap`}>
                  {types.join(', ')}
                </code>
                {fields.length > 0 && (
                  <span className={`mt-1 block ${codeClass} text-muted-foreground`}>
                    {fields.join(', ')}
                  </span>
                )}
              </th>
              <td className="px-3 py-2 leading-relaxed">
                <MarkdownInline text={does} />
              </td>
            </tr>
          ))}
        </DocsTable>
      </Subsection>

      <Subsection part="differences" title="What differs from KeyAuth">
        <BulletList items={DIFFERENCES} />
      </Subsection>
    </div>
  );
}
