import type { Sample } from '@latchkey/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import keyauthMigrationMarkdown from '../../../../docs/keyauth-migration.md?raw';
import { readCodeBox } from '@/test/code-mirror.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { jsonResponse, neverAnswered, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { DOCUMENTED_FEATURES, DocsPage } from './docs-page.tsx';

const LOGIN_FORM = ['public class LoginForm : Form', '{', '    void LogIn() { }', '}'].join('\n');

const template = (code: string): Sample => ({
  language: 'csharp',
  filename: 'LatchkeyClient.cs',
  code,
  baseUrl: null,
  isCustomized: false,
  updatedAt: null,
});

/** GET /api/samples/csharp, the bare C# template the page shows its client from. */
function stubTemplate(answer: () => Response | Promise<Response>) {
  stubOwnerApi(({ url }) => {
    if (url.pathname === '/sdk/index.json') return jsonResponse(200, { packages: [csharpSdk] });
    return url.pathname === '/api/samples/csharp' ? answer() : undefined;
  });
}

/** The one SDK package this stand-in server has built. */
const csharpSdk = {
  language: 'csharp',
  name: 'Latchkey.Client',
  version: '0.1.0',
  file: 'Latchkey.Client.0.1.0.nupkg',
  size: 39_526,
  sha256: 'c'.repeat(64),
} as const;

const section = (id: string) => document.getElementById(id)!;

/** The rows of a Markdown table under `## {title}` in `markdown`, cells without backticks. */
function markdownTableRows(markdown: string, title: string): string[][] {
  const body = markdown.split(`## ${title}\n`)[1]!.split('\n## ')[0]!;
  return body
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
}

/** A table row's header and data cells, as read. */
const cellTexts = (row: HTMLElement) =>
  [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);

describe('DocsPage', { timeout: 30_000 }, () => {
  beforeEach(() => stubResizeObserver());

  it('links each entry of "On this page" to the section of that name, in order', () => {
    stubTemplate(() => neverAnswered());
    renderWithProviders(<DocsPage />, { path: '/docs' });

    const links = within(screen.getByRole('navigation', { name: 'On this page' })).getAllByRole(
      'link',
    );
    expect(links.map((link) => link.textContent)).toEqual([
      'Quick Start',
      'Features',
      'C# Client',
      'Client SDKs',
      'API Endpoints',
      'Response Codes',
      'Licences',
      'Devices',
      'Variables',
      'Downloads and Updates',
      'Verifying Signatures',
      'Implementation Guide',
      'Moving from KeyAuth',
    ]);
    for (const link of links) {
      const target = section(link.getAttribute('href')!.slice(1));
      expect(target.tagName, link.textContent!).toBe('SECTION');
      expect(within(target).getByRole('heading', { level: 2 }).textContent).toBe(link.textContent);
    }

    expect(
      within(section('features'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([...DOCUMENTED_FEATURES]);
    // Taken from docs/client-api.md, so the page and the file cannot drift apart.
    expect(within(section('signatures')).getByText('X-Signature-Ed25519')).toBeTruthy();
    // The licences section is client-api.md's own, with the licensing calls and an example.
    const licences = within(section('licences'));
    expect(licences.getByText(/exactly one wins/)).toBeTruthy();
    expect(licences.getAllByText('POST /api/v1/license/login').length).toBeGreaterThan(0);
    expect(licences.getByText(/"missing_entitlements": \["TEAM"\]/)).toBeTruthy();
    // Usage meters and their call, from the same file.
    expect(licences.getByRole('heading', { name: 'Usage meters' })).toBeTruthy();
    expect(licences.getAllByText('POST /api/v1/meters/:name/use').length).toBeGreaterThan(0);
    expect(licences.getByText(/"replayed": false/)).toBeTruthy();
    // The offline licence's call, format and verification, from the same file.
    expect(licences.getAllByText('POST /api/v1/license/checkout').length).toBeGreaterThan(0);
    expect(licences.getByText(/function readLicense/)).toBeTruthy();
    // The devices section of docs/client-api.md, with devices/reset.
    const devices = within(section('devices'));
    expect(devices.getAllByText(/RESET_COOLDOWN/).length).toBeGreaterThan(0);
    expect(devices.getByText('POST /api/v1/devices/reset')).toBeTruthy();
    // The remote variables section of docs/client-api.md, its three calls and codes.
    const variables = within(section('variables'));
    for (const call of ['POST /api/v1/var', 'POST /api/v1/user-var', 'POST /api/v1/user-var/set']) {
      expect(variables.getAllByText(call).length).toBeGreaterThan(0);
    }
    expect(variables.getAllByText(/VARIABLE_READ_ONLY/).length).toBeGreaterThan(0);
  });

  it('moves a KeyAuth program over: the switch, its constants, answers, request types, differences', () => {
    stubTemplate(() => neverAnswered());
    renderWithProviders(<DocsPage />, { path: '/docs' });
    const keyauth = within(section('moving-from-keyauth'));
    expect(
      keyauth
        .getAllByRole('heading', { level: 3 })
        .map((heading) => [heading.id, heading.textContent]),
    ).toEqual([
      ['moving-from-keyauth-steps', 'The switch, step by step'],
      ['moving-from-keyauth-program', 'What changes in the program'],
      ['moving-from-keyauth-answers', 'How each answer is made'],
      ['moving-from-keyauth-request-types', 'Request types'],
      ['moving-from-keyauth-differences', 'What differs from KeyAuth'],
    ]);

    // The three steps, in order.
    const steps = within(section('moving-from-keyauth-steps').parentElement!);
    expect(
      steps.getAllByRole('listitem').map((step) => step.querySelector('strong')!.textContent),
    ).toEqual(['Import.', 'Turn it on.', 'Change the program']);

    // The program's constants, with this server's own URLs.
    const origin = window.location.origin;
    const changes = within(
      keyauth.getByRole('table', { name: 'What changes in a KeyAuth program' }),
    );
    expect(changes.getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['URL', `${origin}/api/1.2/`, `${origin}/api/1.3/`],
      ['name', "the card's Application name (KeyAuth)", 'the same'],
      ['ownerid', "the card's Owner ID", 'the same'],
      ['secret', "the card's secret (KeyAuth's, if you pasted it)", 'not used'],
      [
        'the public key',
        'not used',
        "the application's public key (64 hex characters, shown on the card)",
      ],
      ['version', "unchanged: it must equal the application's version in Latchkey", 'the same'],
    ]);
    expect(keyauth.getByText(/build the library from its source with your key/)).toBeTruthy();
    expect(keyauth.getByText(`curl -i ${origin}/api/1.3/`, { exact: false })).toBeTruthy();

    // How answers are made: each version's signature, code 68, 200 refusals, KeyAuth_Invalid.
    const answers = within(section('moving-from-keyauth-answers').parentElement!);
    const rule = (text: RegExp) =>
      answers
        .getAllByRole('listitem')
        .map((item) => item.textContent!)
        .find((item) => text.test(item));
    expect(rule(/^API 1\.3/)).toBe(
      "API 1.3: x-signature-ed25519 (hex) over x-signature-timestamp + body, with the application's own Ed25519 key; the timestamp is the answer's, and clients refuse one older than 20 seconds.",
    );
    expect(rule(/^API 1\.2/)).toContain('keyed by the secret for init and by {enckey}-{secret}');
    expect(rule(/"code": 68/)).toContain("echoes the request's ownerid");
    expect(rule(/^JSON as PHP writes it/)).toContain(
      'every character outside ASCII as \\uXXXX, / as \\/',
    );
    expect(rule(/^Refusals are HTTP 200/)).toContain('the bare, unsigned body KeyAuth_Invalid');

    // Every request type of docs/keyauth-migration.md, with its fields, in the file's order.
    const requestTypes = within(keyauth.getByRole('table', { name: 'KeyAuth request types' }));
    const rows = requestTypes
      .getAllByRole('row')
      .slice(1)
      .map((row) => {
        const [request, does] = row.querySelectorAll('th, td');
        const [type, fields] = request!.children;
        return {
          type: type!.textContent,
          fields: fields?.textContent ?? '—',
          does: does!.textContent,
        };
      });
    expect(rows.map(({ type, fields }) => [type, fields])).toEqual(
      markdownTableRows(keyauthMigrationMarkdown, 'Request types').map(([type, fields]) => [
        type,
        fields,
      ]),
    );
    expect(rows.find(({ type }) => type === 'checkblacklist')!.does).toBe(
      "KeyAuth's inverted answer: success: true means the address or HWID is blacklisted.",
    );

    const differences = within(section('moving-from-keyauth-differences').parentElement!);
    expect(differences.getAllByRole('listitem')).toHaveLength(10);
    expect(
      differences
        .getAllByRole('listitem')
        .find((item) => item.textContent!.startsWith('Licence keys are never answered'))
        ?.textContent,
    ).toContain('info.subscriptions[].key is null');
  });

  describe('arriving at a section named in the address', () => {
    afterEach(() => {
      window.history.replaceState(null, '', '/');
      vi.restoreAllMocks();
    });

    it('scrolls to it once drawn', () => {
      window.history.replaceState(null, '', '/docs#moving-from-keyauth');
      const scrolled: Element[] = [];
      stubScrollIntoView();
      vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
        scrolled.push(this);
      });
      stubTemplate(() => neverAnswered());
      renderWithProviders(<DocsPage />, { path: '/docs' });
      expect(scrolled).toEqual([section('moving-from-keyauth')]);
    });
  });

  it('says the C# client is loading, then why it could not be loaded, with Try Again', async () => {
    let answer = (): Response | Promise<Response> => neverAnswered();
    stubTemplate(() => answer());
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<DocsPage />, { path: '/docs' });
    expect(within(section('csharp-client')).getByRole('status').textContent).toBe(
      'Loading the C# client…',
    );
    unmount();

    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    renderWithProviders(<DocsPage />, { path: '/docs' });
    const heading = await screen.findByRole('heading', { name: 'Error loading the C# client' });
    const errorState = heading.parentElement!;
    expect(within(errorState).getByText('Failed to load the C# sample')).toBeTruthy();

    answer = () => jsonResponse(200, template(`using System;\n${LOGIN_FORM}\n`));
    await user.click(within(errorState).getByRole('button', { name: 'Try Again' }));
    expect(await readCodeBox('login form')).toBe(LOGIN_FORM);
  });

  it('shows the full client and, when the template has one, its login form on its own', async () => {
    stubTemplate(() =>
      jsonResponse(200, template(`using System;\npublic class Client { }\n${LOGIN_FORM}\n`)),
    );
    const { unmount } = renderWithProviders(<DocsPage />, { path: '/docs' });
    const client = section('csharp-client');
    expect(
      (await within(client).findByRole('heading', { name: /^Full C# client class/ })).textContent,
    ).toBe('Full C# client class (LatchkeyClient.cs)');
    expect(await readCodeBox('C# client')).toBe(
      `using System;\npublic class Client { }\n${LOGIN_FORM}\n`,
    );
    expect(await readCodeBox('login form')).toBe(LOGIN_FORM);
    expect(within(client).getByRole('link', { name: 'Code page' }).getAttribute('href')).toBe(
      '/integration',
    );
    unmount();

    stubTemplate(() => jsonResponse(200, template('public class Client { }\n')));
    renderWithProviders(<DocsPage />, { path: '/docs' });
    expect(
      await within(section('csharp-client')).findByText(
        'The login form is part of the full client above.',
      ),
    ).toBeTruthy();
  });

  it('shows how to install each client SDK this server serves', async () => {
    stubTemplate(() => neverAnswered());
    renderWithProviders(<DocsPage />, { path: '/docs' });

    const sdks = within(section('sdks'));
    const csharp = await sdks.findByRole('region', { name: 'Install the C# SDK' });
    expect((await within(csharp).findByLabelText('Install command')).textContent).toBe(
      [
        `curl -fLO ${window.location.origin}/sdk/Latchkey.Client.0.1.0.nupkg`,
        'dotnet add package Latchkey.Client --version 0.1.0 --source .',
      ].join('\n'),
    );
    expect(csharp.textContent).toContain('.NET Framework 4.5 or later');
    for (const label of ['Python', 'Node.js', 'C++']) {
      const region = sdks.getByRole('region', { name: `Install the ${label} SDK` });
      expect(region.textContent).toContain(`This server has no ${label} package built.`);
    }
  });
});
